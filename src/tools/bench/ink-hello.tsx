/**
 * The "bundled ink hello" floor of the bench's first-paint figures: the least an ink app can do
 * before its first frame (load one bundled file with React and ink, take over the terminal the
 * way run-app.tsx does, render one line, listen for keys). Bundled by scripts/bundle.mjs into
 * dist/bench/ink-hello.js like the app into bin/pi-sessions.js, so both pay the same loading.
 */
import { render, Text, useApp, useInput } from 'ink';
import { enterFullScreen, leaveFullScreen } from '../../terminal/screen.js';

function Hello() {
  const { exit } = useApp();
  useInput((input) => {
    if (input === 'q') exit();
  });
  return <Text>hello from ink</Text>;
}

enterFullScreen(process.stdout);
const instance = render(<Hello />, { exitOnCtrlC: true, patchConsole: false });
await instance.waitUntilExit();
leaveFullScreen(process.stdout);
