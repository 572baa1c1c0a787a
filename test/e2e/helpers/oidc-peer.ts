import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import Provider, { type Configuration } from 'oidc-provider';

// A real OpenID provider for the single sign-on tests (`oidc-provider`): discovery, authorization code with PKCE,
// signed ID tokens, and dynamic client registration (each test registers its own redirect URI). Its sign-in page
// is a tiny form of its own: the person types the e-mail of the account to use (any e-mail is an account), or
// declines. The accounts' tenant ('tid', as Microsoft's ID tokens carry) is `tenant-a` unless the e-mail's domain
// starts with 'other' (`tenant-b`); 'unverified' in the local part makes `email_verified` false.
//
// Server tests: `startOidcPeer()`; Playwright: `tsx test/e2e/helpers/oidc-peer.ts <port>`.

export const TENANT_A = 'tenant-a';
export const TENANT_B = 'tenant-b';

function claimsOf(email: string) {
  const [local = '', domain = ''] = email.split('@');
  return {
    sub: email,
    email,
    email_verified: !local.includes('unverified'),
    preferred_username: email,
    name: local,
    tid: domain.startsWith('other') ? TENANT_B : TENANT_A,
  };
}

const page = (uid: string, prompt: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test Provider</title></head>
<body><main><h1>Sign in to Test Provider</h1><p>${prompt}</p>
<form method="post" action="/interaction/${uid}"><label>E-mail <input name="email" type="email" autocomplete="off"></label>
<button type="submit">Continue</button><button type="submit" name="decline" value="1">Decline</button></form></main></body></html>`;

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export interface OidcPeer {
  issuer: string;
  /** Registers a client (as a relying party would at the provider's console) for these redirect URIs. */
  registerClient(redirectUris: string[]): Promise<{ clientId: string; clientSecret: string }>;
  close(): Promise<void>;
}

export async function startOidcPeer(port = 0): Promise<OidcPeer> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  const issuer = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`;

  const configuration: Configuration = {
    clients: [],
    pkce: { required: () => true },
    // Every scope's claims in the ID token (Microsoft and Google put e-mail and tenant there too).
    conformIdTokenClaims: false,
    claims: { openid: ['sub', 'tid'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'] },
    features: { devInteractions: { enabled: false }, registration: { enabled: true } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => claimsOf(sub) }),
    // First-party test clients: no consent screen, every requested OpenID scope granted.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    cookies: { keys: ['test-peer-cookie-key'] },
    ttl: { Session: 600, Interaction: 600, Grant: 600, AuthorizationCode: 60, AccessToken: 600, IdToken: 600 },
  };
  const provider = new Provider(issuer, configuration);
  const callback = provider.callback();

  server.on('request', async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', issuer);
    const match = /^\/interaction\/([\w-]+)$/.exec(url.pathname);
    if (!match) return callback(req, res);
    try {
      const details = await provider.interactionDetails(req, res);
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(page(match[1]!, `Signing in to ${String(details.params.client_id)}`));
      }
      const form = await formBody(req);
      const result = form.get('decline')
        ? { error: 'access_denied', error_description: 'The person declined to sign in' }
        : { login: { accountId: (form.get('email') ?? '').trim().toLowerCase() } };
      await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
    } catch (err) {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(`interaction failed: ${String(err)}`);
    }
  });

  return {
    issuer,
    async registerClient(redirectUris) {
      const answer = await fetch(`${issuer}/reg`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: redirectUris, grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic' }),
      });
      if (!answer.ok) throw new Error(`client registration at the test provider: ${answer.status} ${await answer.text()}`);
      const body = (await answer.json()) as { client_id: string; client_secret: string };
      return { clientId: body.client_id, clientSecret: body.client_secret };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const peer = await startOidcPeer(Number(process.argv[2] ?? 0));
  console.log(`test OpenID provider at ${peer.issuer}`);
}
