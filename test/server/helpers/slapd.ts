import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'ldapts';
import { freePort } from './free-port';

// A real OpenLDAP directory for the tests: Debian's slapd on a loopback port with a temporary database, never the
// system one (.ci/run installs slapd and ldap-utils when missing, as it does Chromium).

export const SLAPD = '/usr/sbin/slapd';
export const BASE_DN = 'dc=tanya,dc=test';
export const PEOPLE_DN = `ou=people,${BASE_DN}`;
const ROOT_DN = `cn=admin,${BASE_DN}`;
const ROOT_PASSWORD = 'root-secret';

export interface DirectoryPerson {
  uid: string;
  mail: string;
  password: string;
  displayName: string;
}

export interface Slapd {
  url: string;
  rootDn: string;
  rootPassword: string;
  /** Adds people under ou=people (uid=..., with mail, displayName, userPassword). */
  addPeople(people: DirectoryPerson[]): Promise<void>;
  stop(): Promise<void>;
}

async function rootClient(url: string): Promise<Client> {
  const client = new Client({ url, timeout: 5_000, connectTimeout: 5_000 });
  await client.bind(ROOT_DN, ROOT_PASSWORD);
  return client;
}

export async function startSlapd(): Promise<Slapd> {
  if (!existsSync(SLAPD)) {
    throw new Error(`${SLAPD} is missing: install it with "apt-get install -y slapd ldap-utils" (.ci/run does so when missing)`);
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'tanya-slapd-'));
  await mkdir(path.join(dir, 'db'));
  const conf = path.join(dir, 'slapd.conf');
  await writeFile(
    conf,
    [
      'include /etc/ldap/schema/core.schema',
      'include /etc/ldap/schema/cosine.schema',
      'include /etc/ldap/schema/inetorgperson.schema',
      `pidfile ${path.join(dir, 'slapd.pid')}`,
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      'database mdb',
      `suffix "${BASE_DN}"`,
      `rootdn "${ROOT_DN}"`,
      `rootpw ${ROOT_PASSWORD}`,
      `directory ${path.join(dir, 'db')}`,
      'maxsize 10485760',
      // People may read their own entry (the display name) and bind; nobody reads passwords.
      'access to attrs=userPassword by anonymous auth by self write by * none',
      'access to * by self read by users read by anonymous auth',
      '',
    ].join('\n'),
  );
  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  // -d 0: stay in the foreground (so stopping the test stops it) without debug output.
  const child: ChildProcess = spawn(SLAPD, ['-h', `${url}/`, '-f', conf, '-d', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));

  const deadline = Date.now() + 15_000;
  let admin: Client | undefined;
  while (!admin) {
    try {
      admin = await rootClient(url);
    } catch (err) {
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`slapd did not start on ${url}: ${stderr || String(err)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  await admin.add(BASE_DN, { objectClass: ['top', 'dcObject', 'organization'], dc: 'tanya', o: 'Tanya Test' });
  await admin.add(PEOPLE_DN, { objectClass: ['top', 'organizationalUnit'], ou: 'people' });
  await admin.unbind();

  return {
    url,
    rootDn: ROOT_DN,
    rootPassword: ROOT_PASSWORD,
    async addPeople(people) {
      const client = await rootClient(url);
      try {
        for (const p of people) {
          await client.add(`uid=${p.uid},${PEOPLE_DN}`, {
            objectClass: ['top', 'person', 'organizationalPerson', 'inetOrgPerson'],
            uid: p.uid,
            cn: p.displayName,
            sn: p.displayName.split(' ').at(-1) ?? p.displayName,
            displayName: p.displayName,
            mail: p.mail,
            userPassword: p.password,
          });
        }
      } finally {
        await client.unbind();
      }
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A directory that accepts connections and never answers: sign-in must give up within the timeout. */
export async function startSilentDirectory(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `ldap://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** An address where nothing listens: the directory is down. */
export async function closedDirectoryUrl(): Promise<string> {
  return `ldap://127.0.0.1:${await freePort()}`;
}
