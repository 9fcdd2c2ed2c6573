/** A render error reaches `onCrash` instead of ink's stack-trace overview. */
import { Text } from 'ink';
import type React from 'react';
import { describe, expect, it } from 'vitest';
import { CrashBoundary } from '../../components/common/CrashBoundary.js';
import { renderInk } from '../helpers/ink.js';

function Boom(): React.JSX.Element {
  throw new Error('kaboom in render');
}

describe('CrashBoundary', () => {
  it('hands a render error to onCrash and draws nothing of it', async () => {
    const errors: unknown[] = [];
    const app = renderInk(
      <CrashBoundary onCrash={(e) => errors.push(e)}>
        <Text>before</Text>
        <Boom />
      </CrashBoundary>,
      { columns: 60, rows: 10 },
    );
    await app.settle();
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('kaboom in render');
    expect(app.lastFrame()).not.toMatch(/kaboom|at Boom|\.tsx:/);
  });
});
