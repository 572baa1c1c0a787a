import { config } from 'zod/v4/core';

// zod 4 compiles object parsers with `new Function`, after probing once whether eval is allowed. Under the
// app's Content-Security-Policy (no 'unsafe-eval', server/http/security.ts) that probe alone is reported as a
// violation. Jitless parsing is plenty fast for API responses. zod decides when a schema is created (the
// contract's, at import), so the setting must come before: the SPA's build resolves `zod` to this module
// (vite.config.ts), whose body runs before that of any module importing zod.
config({ jitless: true });

export * from 'zod/v4';
