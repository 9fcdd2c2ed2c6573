/**
 * Stops a terminal stream reading, for good: what is typed from then on stays in the terminal
 * for the next program that reads it (the shell, or pi when pi-sessions runs inside pi).
 *
 * ink reads in paused mode ('readable' + read()) and, when the app ends, only removes its
 * listener. The stream's handle goes on reading into the stream's buffer until the process ends,
 * and every key typed meanwhile is lost with it. `pause()` does not help there: it acts on a
 * flowing stream only (on a paused one it emits nothing, so Node's own stop for process.stdin
 * never runs). So this does what Node does for process.stdin on 'pause' (lib/internal/bootstrap/
 * switches/is_main_thread.js, getStdin's onpause): mark the stream not reading and stop the
 * handle's read. A stream without such a handle (a test's stand-in) is just paused.
 */
interface ReadingHandle {
  reading?: boolean;
  readStop?(): number;
}

type Internals = { _handle?: ReadingHandle | null; _readableState?: { reading?: boolean } };

/** Stops the handle's read (what Node's stdin does on 'pause'); false when there is none to stop. */
function stopHandle(stream: NodeJS.ReadableStream): boolean {
  const internals = stream as Internals;
  const handle = internals._handle;
  if (!handle || typeof handle.readStop !== 'function' || !handle.reading) return false;
  handle.reading = false;
  if (internals._readableState) internals._readableState.reading = false;
  handle.readStop();
  return true;
}

export function stopReading(stream: NodeJS.ReadableStream): void {
  stream.pause();
  stopHandle(stream);
}

/**
 * For a while: what is typed meanwhile waits in the terminal, until `resumeReading`. Call it once
 * the reader's loop is done (a microtask after the read): a `read()` still to come in that loop
 * would start the handle again.
 */
export function holdReading(stream: NodeJS.ReadableStream): void {
  stopHandle(stream);
}

/** Reads again after `holdReading`: a read asks the stream for more, which starts the handle (net.Socket's tryReadStart). */
export function resumeReading(stream: NodeJS.ReadableStream): void {
  const handle = (stream as Internals)._handle;
  if (!handle || handle.reading) return;
  stream.read(0);
}
