/** Deleting to the trash: the system trash or the freedesktop one, and the safe cross-device move. The store's public face for this job (re-exported by ../index.ts). */

export {
  type RestoreOutcome,
  restoreSessions,
  type TrashedSession,
  type TrashFunction,
  type TrashOutcome,
  trashSessions,
} from './trash.js';
