import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { SERVER_LAYERS } from '../../eslint/server-layers.js';

// The import boundaries of ARCHITECTURE.md as eslint.config.js enforces them: each rule is shown to report a
// violating snippet and to pass an allowed one. The files need not exist: lintText only uses the path.
const root = path.resolve(import.meta.dirname, '../..');

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The ids of the rules that report `code` as if it were the file at `filePath`. */
async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return result.messages.map((m) => m.ruleId ?? m.message);
}

describe('lint boundaries', () => {
  describe('(a) a feature imports neither another feature nor src/app/', () => {
    const file = 'src/features/auth/probe.ts';
    it('reports another feature and the app shell', async () => {
      expect(await problems(file, "import { x } from '../chat/message-list';\nexport const y = x;\n")).toContain('tanya/feature-boundaries');
      expect(await problems(file, "import { x } from '../../features/chat/message-list';\nexport const y = x;\n")).toContain('tanya/feature-boundaries');
      expect(await problems(file, "import { x } from '../../app/router';\nexport const y = x;\n")).toContain('tanya/feature-boundaries');
      expect(await problems(file, "export const load = () => import('../profile/profile-page');\n")).toContain('tanya/feature-boundaries');
    });
    it('allows its own files, src/ui, src/lib and contract/', async () => {
      const code = [
        "import { a } from './login-form';",
        "import { b } from '../auth/reset-password-page';",
        "import { c } from '../../ui/button';",
        "import { d } from '../../lib/words';",
        "import { e } from '../../../contract/auth';",
        'export const all = [a, b, c, d, e];',
      ].join('\n');
      expect(await problems(file, `${code}\n`)).toEqual([]);
      // Outside src/features/ the app shell imports features: that is the intended direction.
      expect(await problems('src/app/probe.ts', "import { x } from '../features/chat/message-list';\nexport const y = x;\n")).toEqual([]);
    });
  });

  describe('(b) services never import server/http/', () => {
    it('reports an http import from a service', async () => {
      expect(await problems('server/services/chat/probe.ts', "import { errorBody } from '../../http/errors';\nexport const y = errorBody;\n")).toContain(
        'no-restricted-imports',
      );
    });
    it('allows domain errors and repositories', async () => {
      const code = "import { NotFoundError } from '../errors';\nimport { findUserById } from '../../db/repositories/users';\nexport const y = [NotFoundError, findUserById];\n";
      expect(await problems('server/services/chat/probe.ts', code)).toEqual([]);
      expect(await problems('server/routes/probe.ts', "import { ok } from '../http/reply';\nexport const y = ok;\n")).toEqual([]);
    });
  });

  describe('(c) Kysely code only in server/db/', () => {
    const valueImport = "import { sql } from 'kysely';\nexport const q = sql`select 1`;\n";
    const typeImport = "import type { Kysely } from 'kysely';\nexport type Db = Kysely<object>;\n";
    it('reports a value import outside server/db/, and any import in routes and http', async () => {
      expect(await problems('server/services/probe.ts', valueImport)).toContain('@typescript-eslint/no-restricted-imports');
      expect(await problems('server/app-probe.ts', valueImport)).toContain('@typescript-eslint/no-restricted-imports');
      expect(await problems('server/routes/probe.ts', typeImport)).toContain('@typescript-eslint/no-restricted-imports');
      expect(await problems('server/http/probe.ts', typeImport)).toContain('@typescript-eslint/no-restricted-imports');
    });
    it('allows it in server/db/ and type-only imports in services', async () => {
      expect(await problems('server/db/repositories/probe.ts', valueImport)).toEqual([]);
      expect(await problems('server/services/probe.ts', typeImport)).toEqual([]);
    });
  });

  describe('(d) no barrel re-exports in contract/', () => {
    it('reports export * and export { x } from', async () => {
      expect(await problems('contract/probe.ts', "export * from './chat';\n")).toContain('no-restricted-syntax');
      expect(await problems('contract/probe.ts', "export { user } from './user';\n")).toContain('no-restricted-syntax');
    });
    it('allows importing and exporting what the file defines', async () => {
      const code = "import { z } from 'zod';\nimport { roles } from './roles';\nexport const role = z.enum(roles);\n";
      expect(await problems('contract/probe.ts', code)).toEqual([]);
    });
  });

  describe('(e) shared/ imports nothing of ours; contract/ imports only zod and shared/', () => {
    it('reports contract/, machines/ or zod in shared/, and machines/ in contract/', async () => {
      expect(await problems('shared/probe.ts', "import { API_PREFIX } from '../contract/api-paths';\nexport const y = API_PREFIX;\n")).toContain('no-restricted-imports');
      expect(await problems('shared/probe.ts', "import { z } from 'zod';\nexport const y = z;\n")).toContain('no-restricted-imports');
      expect(await problems('contract/probe.ts', "import { notice } from '../machines/notice';\nexport const y = notice;\n")).toContain('no-restricted-imports');
    });
    it('allows shared/ in contract/ and machines/', async () => {
      expect(await problems('contract/probe.ts', "import { normaliseTags } from '../shared/tags';\nexport const y = normaliseTags;\n")).toEqual([]);
      expect(await problems('machines/probe.ts', "import { countWords } from '../shared/word-count';\nexport const y = countWords;\n")).toEqual([]);
    });
  });

  describe('(f) server/ folders import only what eslint/server-layers.js allows', () => {
    // One forbidden and one allowed import per folder, from the folder's own allow-list.
    const probe = (layer: string) => (layer === 'services' ? 'server/services/probe.ts' : `server/${layer}/probe.ts`);
    const importOf = (from: string, to: string) => {
      const target = to === 'services' ? 'server/services/errors' : `server/${to}/x`;
      const spec = path.posix.relative(path.posix.dirname(probe(from)), target);
      return `import { x } from '${spec.startsWith('.') ? spec : `./${spec}`}';\nexport const y = x;\n`;
    };
    for (const [layer, allowed] of Object.entries(SERVER_LAYERS)) {
      const forbidden = Object.keys(SERVER_LAYERS).filter((other) => other !== layer && !allowed.includes(other));
      it(`${layer}: refuses ${forbidden.join(', ') || 'nothing'}${allowed.length ? `, allows ${allowed.join(', ')}` : ''}`, async () => {
        for (const to of forbidden) expect(await problems(probe(layer), importOf(layer, to)), `${layer} -> ${to}`).toContain('tanya/server-layers');
        for (const to of allowed) expect(await problems(probe(layer), importOf(layer, to)), `${layer} -> ${to}`).not.toContain('tanya/server-layers');
      });
    }
    it('keeps the client administration (services/clients) a leaf: routes reach it, no other domain imports it', async () => {
      expect(SERVER_LAYERS.routes).toContain('services/clients');
      for (const [layer, allowed] of Object.entries(SERVER_LAYERS)) {
        if (layer !== 'routes') expect(allowed, layer).not.toContain('services/clients');
      }
      const fromOrganisation = "import { x } from '../clients/clients';\nexport const y = x;\n";
      expect(await problems('server/services/organisation/probe.ts', fromOrganisation)).toContain('tanya/server-layers');
      const fromClients = "import { createFairUseMeter } from '../organisation/fair-use';\nexport const y = createFairUseMeter;\n";
      expect(await problems('server/services/clients/probe.ts', fromClients)).not.toContain('tanya/server-layers');
    });
    it('lists each folder after the folders it may import, so folders cannot import each other in a cycle', () => {
      const order = Object.keys(SERVER_LAYERS);
      for (const [layer, allowed] of Object.entries(SERVER_LAYERS)) {
        for (const to of allowed) expect(order.indexOf(to), `${layer} -> ${to}`).toBeLessThan(order.indexOf(layer));
      }
    });
    it('lets folders import the root files (context, config) as types only, and refuses a folder it does not know', async () => {
      expect(await problems('server/services/chat/probe.ts', "import type { AppContext } from '../../context';\nexport type C = AppContext;\n")).toEqual([]);
      expect(await problems('server/services/chat/probe.ts', "import { buildContext } from '../../context';\nexport const c = buildContext;\n")).toContain('tanya/server-layers');
      expect(await problems('server/newfolder/probe.ts', 'export const y = 1;\n')).toContain('tanya/server-layers');
      expect(await problems('server/app-probe.ts', "import { x } from './services/chat/chat';\nexport const y = x;\n")).toEqual([]);
    });
  });
});
