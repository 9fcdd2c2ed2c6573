/**
 * Set by `npm start` (src/start.ts) to the demo store's agent dir, so the picker says it shows a
 * demo. Only honoured when it is the agent dir actually in use, so a stray value labels nothing.
 * (Its own module: the CLI bundle must not pull in the demo generator for one name.)
 */
export const DEMO_STORE_ENV = 'PI_SESSIONS_DEMO_STORE';
