/** What Open in pi opens, and what the screen's check found out (open-in-pi.ts decides with them). */

/** An entry of this session (the leaf is moved there first), or another session file (a fork). */
export type OpenTarget = { kind: 'entry'; id: string } | { kind: 'file'; path: string };

/** What the screen found out (`check-open`'s answer). */
export interface OpenChecked {
  target: OpenTarget;
  piFound: boolean;
  cwdExists: boolean;
}

export interface OpenFacts {
  /** This session's file and stored cwd. */
  path: string;
  sessionCwd: string;
  /** The folder pi-sessions runs in. */
  here: string;
  /** The entry pi resumes at now (an entry target elsewhere moves the leaf first). */
  leafId: string | null;
}
