#!/usr/bin/env node
/** `pi-sessions`: the entry. Runs `main` (cli/main.ts) on the process's argv and streams. */

import type { Output } from './cli/commands.js';
import { main } from './cli/main.js';
import { errorMessage, errorReport } from './terminal/error-report.js';

async function run(): Promise<void> {
  const io: Output = {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    write: (bytes) => new Promise<void>((resolve) => process.stdout.write(bytes, () => resolve())),
    ...(process.stdout.isTTY ? { columns: process.stdout.columns, terminal: true } : {}),
  };
  // `pi-sessions list | head` closes the pipe early: that is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  });
  try {
    process.exitCode = await main(process.argv.slice(2), io);
  } catch (error) {
    process.stderr.write(errorReport(error, { line: `pi-sessions: unexpected error: ${errorMessage(error)}` }));
    process.exitCode = 1;
  }
}

void run();
