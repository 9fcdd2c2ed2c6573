/**
 * The cheap test in front of secretlint: a text can hold a secret the recommended preset reports
 * only if it holds one of these markers, each a part that a rule's own pattern cannot match
 * without (secretlint 11.7.1, read from its rules):
 *
 * - aws: `(SECRET|secret|Secret)_?(ACCESS|access|Access)_?(KEY|key|Key)` (its key-id and
 *   account-id patterns run only with `enableIDScanRule`, off in the preset)
 * - privatekey: `PRIVATE KEY` (inside `-----BEGIN … PRIVATE KEY-----`)
 * - npm: `x-oauth-basic@github.com`, `_authToken=`, `npm_`
 * - slack: `xoxb- xoxp- xoxa- xoxo- xoxr- xapp-`; webhooks `hooks.slack.com` (any case: /gi)
 * - basicauth: `://user:password@` (user and password of `[-\w]`)
 * - sendgrid `SG.`, shopify `shppa_ shpca_ shpat_ shpss_`, github `ghp_ gho_ ghu_ ghs_ ghr_
 *   github_pat_`, openai `T3BlbkFJ` (both of its forms), anthropic `sk-ant-api0N-`, linear
 *   `lin_api_`, 1password `ops_ey`
 * - database-connection-string: `mongodb`, `mysql`, `postgres` (any case: /gi)
 * - gcp reads only `.json` and `.p12` files; the scan hands secretlint text (`/session.txt`).
 *
 * A marker may appear without a secret (then secretlint decides); a secret never appears
 * without its marker. test/export/prefilter.test.ts scans every fixture with and without this
 * test and compares. A new secretlint version must be read again before it is pinned.
 */

const CASED =
  /(?:SECRET|secret|Secret)_?(?:ACCESS|access|Access)_?(?:KEY|key|Key)|PRIVATE KEY|x-oauth-basic@github\.com|_authToken=|npm_|xox[bpaor]-|xapp-|SG\.|shp(?:pa|ca|at|ss)_|gh[pousr]_|github_pat_|T3BlbkFJ|sk-ant-api0\d-|lin_api_|ops_ey|:\/\/[-\w]{1,256}:[-\w]{1,256}@/;
const ANY_CASE = /hooks\.slack\.com|mongodb|mysql|postgres/i;

/** Whether secretlint's recommended rules could report anything in `text`. */
export function mayHoldSecret(text: string): boolean {
  return CASED.test(text) || ANY_CASE.test(text);
}

/**
 * JSON escapes that could hide a marker's character in a raw line: `\/`, and `\u` of a printable
 * ASCII character (a writer may escape any; JSON.stringify, pi's writer, escapes none of them).
 */
const HIDING_ESCAPE = /\\\/|\\u00[2-7][0-9A-Fa-f]/;

/**
 * The same test on a raw JSONL line, before it is parsed: its JSON strings hold the markers as
 * they are (all ASCII, so a latin1 view of UTF-8 bytes holds them byte for byte), unless an
 * escape hides a character of one, in which case the line is kept too.
 */
export function rawLineMayHoldSecret(buf: Buffer, start: number, end: number): boolean {
  const text = buf.toString('latin1', start, end);
  return mayHoldSecret(text) || HIDING_ESCAPE.test(text);
}
