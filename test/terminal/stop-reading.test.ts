/**
 * stopReading on a real libuv stream read the way ink reads (paused mode: 'readable' + read()):
 * once ink has removed its listener, the stream no longer reads, so bytes that arrive after stay
 * with the sender's side (the terminal) for the next reader, instead of being swallowed into a
 * buffer nobody drains. A unix socket stands in for the terminal: same handle, same read path.
 */
import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stopReading } from '../../src/terminal/stop-reading.js';
import { tempDir } from '../helpers/factory.js';

const open: (Server | Socket)[] = [];
afterEach(() => {
  for (const thing of open.splice(0)) (thing as Socket).destroy?.() ?? (thing as Server).close();
});

async function connectedPair(): Promise<{ reader: Socket; writer: Socket }> {
  const path = join(tempDir('pi-sessions-stop-reading-'), 'sock');
  const server = createServer();
  open.push(server);
  server.listen(path);
  await once(server, 'listening');
  const accepted = once(server, 'connection') as Promise<[Socket]>;
  const reader = connect(path);
  open.push(reader);
  const [writer] = await accepted;
  open.push(writer);
  server.close();
  return { reader, writer };
}

/** Reads like ink: a 'readable' listener that drains read() until null. */
function readLikeInk(stream: Socket, got: string[]): () => void {
  stream.setEncoding('utf8');
  const onReadable = (): void => {
    for (let chunk = stream.read() as string | null; chunk !== null; chunk = stream.read() as string | null)
      got.push(chunk);
  };
  stream.on('readable', onReadable);
  return () => stream.off('readable', onReadable);
}

describe('stopReading', () => {
  it('stops the read of a paused-mode stream (where pause() alone does nothing) and loses nothing', async () => {
    const { reader, writer } = await connectedPair();
    const got: string[] = [];
    const detach = readLikeInk(reader, got);
    writer.write('mine');
    await new Promise<void>((resolve) => reader.once('readable', () => setImmediate(resolve)));
    expect(got.join('')).toBe('mine');

    detach();
    stopReading(reader);
    const handle = (reader as unknown as { _handle: { reading: boolean } })._handle;
    expect(handle.reading).toBe(false);

    // What is sent now is not read by this stream until someone reads again; then it is all there.
    // Once the kernel has the bytes (the write's callback), the next poll phase of the event loop
    // (between two check phases) is where a reading stream would take them.
    await new Promise((resolve) => writer.write('for the next reader', resolve));
    writer.end();
    await new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
    expect(reader.readableLength).toBe(0);
    const rest: string[] = [];
    reader.on('data', (chunk: string) => rest.push(chunk));
    await once(reader, 'end');
    expect(rest.join('')).toBe('for the next reader');
  });

  it('pauses a stream that has no handle (a test stand-in)', () => {
    let paused = false;
    stopReading({ pause: () => (paused = true) } as unknown as NodeJS.ReadableStream);
    expect(paused).toBe(true);
  });
});
