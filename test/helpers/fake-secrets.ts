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

const pems = new Map<'pkcs1' | 'pkcs8', string>();
/** A fresh RSA key in PEM: PKCS#1 (`BEGIN RSA PRIVATE KEY`, ssh-keygen's old default) or PKCS#8 (`BEGIN PRIVATE KEY`, GCP's). */
function privateKeyPem(type: 'pkcs1' | 'pkcs8' = 'pkcs1'): string {
  let pem = pems.get(type);
  if (pem === undefined) {
    pem = generateKeyPairSync('rsa', {
      modulusLength: 1024,
      privateKeyEncoding: { type, format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    }).privateKey;
    pems.set(type, pem);
  }
  return pem;
}

/**
 * A GCP service-account key file as `cat key.json` prints it: the PKCS#8 key is a JSON string, so
 * its line breaks are `\n` escapes in the text. The secret is the key as it stands there.
 */
function gcpServiceAccount(): FakeSecret {
  const pem = privateKeyPem('pkcs8').trim();
  const file = JSON.stringify(
    {
      type: 'service_account',
      project_id: 'acme-prod-4821',
      private_key_id: hex(40, 19),
      private_key: `${pem}\n`,
      client_email: 'deploy-bot@acme-prod-4821.iam.gserviceaccount.com',
      client_id: '104857362910385726193',
      auth_uri: 'https://accounts.google.com/o/oauth2/auth',
      token_uri: 'https://oauth2.googleapis.com/token',
    },
    null,
    2,
  );
  return { kind: 'PrivateKey', secret: JSON.stringify(pem).slice(1, -1), text: `$ cat deploy-key.json\n${file}\n` };
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
  out.push(gcpServiceAccount());
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
  // Placeholders where a key goes, as READMEs and .env.example files write them.
  'OPENAI_API_KEY=sk-XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX',
  'export ANTHROPIC_API_KEY=sk-ant-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
  'GITHUB_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX',
  // AWS's own documentation pair: the example secret key is not a secret.
  'aws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  // Variables standing where the password goes (a shell's `${…}`, written here without the linter's template warning).
  `password: $${'{'}PASSWORD}`,
  `DATABASE_URL=postgres://app:$${'{'}DB_PASSWORD}@db.internal:5432/prod`,
  // Ids: UUIDs, git SHAs (a merge of two commits), a request id.
  'request 3f2b8c1e-9d4a-4e6f-b2c7-1a5d8e9f0b3c failed; retrying as 7c9e6679-7425-40de-944b-e07fc1f90ae7',
  'Merge 4b825dc642cb6eb9a060e54bf8d69288fbee4904 into e69de29bb2d1d6434b8b29ae775ad8c2e48c5391',
  // Base64 of text that is no secret (a README line, a JSON config).
  `README.md: ${Buffer.from('This is the README of the deploy tool: run make deploy, nothing secret here.').toString('base64')}`,
  `config: ${Buffer.from(JSON.stringify({ region: 'eu-west-1', replicas: 3, debug: false })).toString('base64')}`,
  // A service-account file as the docs show it: the key left out.
  '{\n  "type": "service_account",\n  "project_id": "my-project",\n  "private_key_id": "KEY_ID",\n  "private_key": "-----BEGIN PRIVATE KEY-----\\n...\\n-----END PRIVATE KEY-----\\n",\n  "client_email": "SA_NAME@my-project.iam.gserviceaccount.com"\n}',
];
