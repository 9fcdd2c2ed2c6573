import { describe, expect, it } from 'vitest';
import { debugEnabled, errorLine, errorReport } from '../../src/terminal/error-report.js';

describe('errorLine', () => {
  it('is one sanitized line', () => {
    expect(errorLine(new Error('a\nb'))).toBe('pi-sessions: a b');
    expect(errorLine(new TypeError(''))).toBe('pi-sessions: TypeError');
    expect(errorLine(undefined, 'x')).toBe('x: undefined');
    expect(errorLine('\u001b]52;c;x\u0007', 'x')).toBe('x: ␛]52;c;x\\x07');
  });
});

describe('PI_SESSIONS_DEBUG', () => {
  it('is on for any value but unset, empty and 0', () => {
    expect(debugEnabled({})).toBe(false);
    expect(debugEnabled({ PI_SESSIONS_DEBUG: '' })).toBe(false);
    expect(debugEnabled({ PI_SESSIONS_DEBUG: '0' })).toBe(false);
    expect(debugEnabled({ PI_SESSIONS_DEBUG: '1' })).toBe(true);
    expect(debugEnabled({ PI_SESSIONS_DEBUG: 'yes' })).toBe(true);
  });

  it('adds the stack, sanitised, only when on', () => {
    const error = new Error('boom \u001b]0;TITLE\u0007');
    expect(errorReport(error, { env: {} })).toBe('pi-sessions: boom ␛]0;TITLE\\x07\n');
    const report = errorReport(error, { env: { PI_SESSIONS_DEBUG: '1' }, line: 'pi-sessions: custom' });
    expect(report.startsWith('pi-sessions: custom\nError: boom ␛]0;TITLE\\x07\n    at ')).toBe(true);
    expect(report).not.toContain('\u001b');
    expect(report).not.toContain('\u0007');
  });
});
