/** A v1 session (no version, no ids): what pi wrote before 0.30, migrated on our first write. `pad` lengthens the first question. */
export function v1Text(turns = 2, pad = 0): string {
  const lines = [
    JSON.stringify({
      type: 'session',
      id: '0c1a0000-0000-4000-8000-000000000001',
      timestamp: '2025-06-01T10:00:00.000Z',
      cwd: '/home/test/old',
    }),
  ];
  for (let i = 0; i < turns; i++) {
    lines.push(
      JSON.stringify({
        type: 'message',
        timestamp: '2025-06-01T10:00:01.000Z',
        message: { role: 'user', content: `question ${i}${i === 0 ? ' '.repeat(pad) : ''}`, timestamp: 1748772001000 },
      }),
    );
    lines.push(
      JSON.stringify({
        type: 'message',
        timestamp: '2025-06-01T10:00:02.000Z',
        message: { role: 'assistant', content: [{ type: 'text', text: `answer ${i}` }], timestamp: 1748772002000 },
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}
