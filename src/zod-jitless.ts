import { z } from 'zod';

// zod 4 compiles object parsers with `new Function`, after probing once whether eval is allowed. Under the
// app's Content-Security-Policy (no 'unsafe-eval', server/http/security.ts) that probe alone is reported as a
// violation. Jitless parsing is plenty fast for API responses. main.tsx imports this first: zod decides when a
// schema is created (the contract's, at import), so later would be too late.
z.config({ jitless: true });
