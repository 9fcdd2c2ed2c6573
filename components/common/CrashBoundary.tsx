/**
 * Catches a render error anywhere below it and hands it to `onCrash` instead of letting ink draw
 * its stack-trace overview: people get one line after the terminal is restored (run-app.tsx),
 * never a stack (unless PI_SESSIONS_DEBUG asks for it, see src/terminal/error-report.ts).
 */
import React from 'react';

interface Props {
  onCrash(error: unknown): void;
  children: React.ReactNode;
}

export class CrashBoundary extends React.Component<Props, { crashed: boolean }> {
  override state = { crashed: false };

  static getDerivedStateFromError(): { crashed: boolean } {
    return { crashed: true };
  }

  override componentDidCatch(error: unknown): void {
    this.props.onCrash(error);
  }

  override render(): React.ReactNode {
    return this.state.crashed ? null : this.props.children;
  }
}
