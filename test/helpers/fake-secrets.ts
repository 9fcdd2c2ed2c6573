/**
 * Realistic fake credentials, made at test time (none is written in the repository, so no secret
 * scanner of a host flags it, and none is real): each in the shape its provider issues, with the
 * kind secretlint's recommended preset names it. And near misses: text that looks like a secret
 * to a careless eye (prefixes, examples from the docs, URLs without a password, public keys).
 */
import { generateKeyPairSync } from 'node:crypto';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `n` letters and digits from a seed (a linear congruential generator: the same every run). */
export function fakeChars(n: number, seed: number, alphabet = ALNUM): string {
  let out = '';
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += alphabet[x % alphabet.length];
  }
  return out;
}

const hex = (n: number, seed: number): string => fakeChars(n, seed, '0123456789abcdef');
const upper = (n: number, seed: number): string => fakeChars(n, seed, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');

export interface FakeSecret {
  /** The kind secretlint reports. */
  kind: string;
  /** The credential itself. */
  secret: string;
  /** A sentence that holds it, as a person or a tool would write it. */
  text: string;
}

let pem: string | undefined;
function privateKeyPem(): string {
  pem ??= generateKeyPairSync('rsa', {
    modulusLength: 1024,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey;
  return pem;
}

export function fakeSecrets(): FakeSecret[] {
  const awsSecret = `${fakeChars(20, 41)}/${fakeChars(19, 42)}`;
  const key = privateKeyPem().trim();
  const out: FakeSecret[] = [
    { kind: 'AWSSecretAccessKey', secret: awsSecret, text: `export AWS_SECRET_ACCESS_KEY="${awsSecret}"` },
  ];
  const add = (kind: string, secret: string, text: (s: string) => string): void => {
    out.push({ kind, secret, text: text(secret) });
  };
  add(
    'GITHUB_TOKEN',
    `ghp_${fakeChars(36, 1)}`,
    (s) => `git remote set-url origin https://github.com/acme/app.git # token ${s}`,
  );
  add('GITHUB_TOKEN', `github_pat_11${upper(20, 2)}_${fakeChars(59, 3)}`, (s) => `GH_TOKEN=${s} gh pr list`);
  add('SLACK_TOKEN', `xoxb-2938475610-4839201928374-${fakeChars(24, 4)}`, (s) => `SLACK_BOT_TOKEN: ${s}`);
  add(
    'IncomingWebhook',
    `https://hooks.slack.com/services/T0${upper(8, 5)}/B0${upper(8, 6)}/${fakeChars(24, 7)}`,
    (s) => `curl -X POST ${s} -d '{"text":"deployed"}'`,
  );
  add('NPM_ACCESS_TOKEN', `npm_${fakeChars(36, 8)}`, (s) => `//registry.npmjs.org/:_authToken=${s}`);
  add('OPENAI_TOKEN', `sk-proj-${fakeChars(74, 9)}T3BlbkFJ${fakeChars(74, 10)}`, (s) => `OPENAI_API_KEY=${s}`);
  add('ANTHROPIC_API_KEY', `sk-ant-api03-${fakeChars(93, 13)}AA`, (s) => `ANTHROPIC_API_KEY=${s}`);
  add('SENDGRID_KEY', `SG.${fakeChars(22, 14)}.${fakeChars(43, 15)}`, (s) => `sendgrid.setApiKey("${s}")`);
  add('PrivateKey', key, (s) => `$ cat ~/.ssh/deploy_key\n${s}\n`);
  add('BasicAuth', 'https://deploy:Tr0ub4dor3xK9@registry.example.com', (s) => `docker login via ${s}/v2/`);
  add('PostgreSQLConnection', 'postgres://app:S3cr3tPassw0rd@db.internal:5432/prod', (s) => `DATABASE_URL=${s}`);
  add(
    'MongoDBConnection',
    'mongodb+srv://admin:hunter2hunter2@cluster0.abcde.mongodb.net/test',
    (s) => `MONGO_URL="${s}"`,
  );
  add('SHOPIFY_KEY', `shpat_${hex(32, 17)}`, (s) => `X-Shopify-Access-Token: ${s}`);
  add('LINEAR_API_TOKEN', `lin_api_${fakeChars(40, 18)}`, (s) => `LINEAR_API_KEY=${s}`);
  return out;
}

/** Texts that are not secrets, though each is close to one. */
export const NEAR_MISSES: readonly string[] = [
  'The AWS docs use AKIAIOSFODNN7EXAMPLE as an example key id.',
  'GitHub tokens start with ghp_ and are 40 characters long.',
  'Clone https://user@example.com/repo.git or open http://localhost:8080/health',
  'postgres://localhost/db and postgres://app@db.internal/prod have no password',
  'OpenAI keys look like sk-... and Anthropic ones like sk-ant-...',
  '-----BEGIN PUBLIC KEY-----\nMIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQC7\n-----END PUBLIC KEY-----',
  'session 019c2d49-00f3-70f7-9c6b-a30b0ef0ece1 at commit a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0',
  'password: ******** and token=<YOUR_TOKEN_HERE>',
  'npm_config_cache=/tmp/npm npm_package_version=1.2.3',
  'Slack bot tokens begin with xoxb- followed by numbers.',
  'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
];
