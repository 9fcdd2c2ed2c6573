/**
 * The title a person sees: the session's name, else its first prompt. One rule for the listing,
 * the labels view, lineage, the CLI, the head of a session read for the picker's preview and a
 * fork's journal line, whatever shape their record has.
 */
export function sessionTitle<First extends string | undefined>(info: {
  name?: string | undefined;
  firstMessage: First;
}): string | First {
  return info.name ?? info.firstMessage;
}
