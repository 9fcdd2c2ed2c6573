/**
 * Copying text the way that can actually reach the user's clipboard, and saying which way was
 * used. Order: the platform's clipboard tool (pbcopy, clip.exe under WSL, wl-copy under Wayland,
 * xclip or xsel under X11), then tmux's own buffer (`tmux load-buffer -w -`: tmux ignores an
 * application's OSC 52 unless `set-clipboard on`, but `-w` forwards to the outer terminal
 * whenever tmux can), and only then a plain OSC 52 sequence written to the terminal. A tool's
 * success is known (exit 0); an OSC 52 one is not, and the message says so instead of claiming it.
 */
import { spawn } from 'node:child_process';
import { plural } from '../format.js';
import { type ClipboardEnv, osc52 } from '../tree/clipboard.js';

export interface CopyTool {
  command: string;
  args: string[];
  /** Shown to the user: "wl-copy", "tmux buffer", … */
  label: string;
}

export interface CopyEnv extends ClipboardEnv {
  WAYLAND_DISPLAY?: string | undefined;
  DISPLAY?: string | undefined;
  WSL_DISTRO_NAME?: string | undefined;
}

/** The tools worth trying, best first, for this platform and environment (pure). */
export function clipboardTools(env: CopyEnv, platform: NodeJS.Platform = process.platform): CopyTool[] {
  const tools: CopyTool[] = [];
  if (platform === 'darwin') tools.push({ command: 'pbcopy', args: [], label: 'pbcopy' });
  if (platform === 'win32' || env.WSL_DISTRO_NAME) tools.push({ command: 'clip.exe', args: [], label: 'clip.exe' });
  if (env.WAYLAND_DISPLAY) tools.push({ command: 'wl-copy', args: [], label: 'wl-copy' });
  if (env.DISPLAY) {
    tools.push({ command: 'xclip', args: ['-selection', 'clipboard'], label: 'xclip' });
    tools.push({ command: 'xsel', args: ['--clipboard', '--input'], label: 'xsel' });
  }
  if (env.TMUX) tools.push({ command: 'tmux', args: ['load-buffer', '-w', '-'], label: "tmux's paste buffer" });
  return tools;
}

/** Runs one tool with the text on stdin; true only for a clean exit within the time limit. */
function runTool(tool: CopyTool, text: string, timeoutMs: number, env: NodeJS.ProcessEnv): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (ok: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(ok);
    };
    // detached + ignored output: xclip stays alive to serve the selection and must not hold our
    // terminal or our exit.
    const child = spawn(tool.command, tool.args, {
      stdio: ['pipe', 'ignore', 'ignore'],
      env,
      detached: process.platform !== 'win32',
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(false);
    }, timeoutMs);
    child.on('error', () => finish(false));
    child.on('exit', (code) => finish(code === 0));
    child.stdin.on('error', () => finish(false));
    child.stdin.end(text);
    child.unref();
  });
}

export type CopyResult =
  | { via: 'tool'; label: string; chars: number }
  | { via: 'osc52'; chars: number; truncated: boolean };

export interface CopyOptions {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Writes the OSC 52 sequence to the terminal (the screen's stdout). */
  writeToTerminal(sequence: string): void;
  timeoutMs?: number;
}

export async function copyText(text: string, options: CopyOptions): Promise<CopyResult> {
  const env = options.env ?? process.env;
  for (const tool of clipboardTools(env, options.platform)) {
    if (await runTool(tool, text, options.timeoutMs ?? 3000, env))
      return { via: 'tool', label: tool.label, chars: [...text].length };
  }
  // Plain OSC 52 (screen needs its DCS wrapper; tmux was handled above, so no tmux wrapper).
  const seq = osc52(text, { STY: env['STY'], TERM: env['TERM'] });
  options.writeToTerminal(seq.sequence);
  return { via: 'osc52', chars: [...text.slice(0, seq.copiedChars)].length, truncated: seq.truncated };
}

/** The status line for a copy: certain for a tool, honest about OSC 52. */
export function copyMessage(result: CopyResult): string {
  const what = plural(result.chars, 'character');
  if (result.via === 'tool') return `Copied ${what} with ${result.label}`;
  const cut = result.truncated ? ' (cut to the terminal limit)' : '';
  return `Sent ${what} to the terminal's clipboard (OSC 52)${cut}; whether it arrives depends on the terminal`;
}
