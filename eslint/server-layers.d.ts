// Types for the test that checks the allow-list (test/unit/lint-boundaries.test.ts); the rule itself is plain JS for ESLint.
export declare const SERVER_LAYERS: Record<string, string[]>;
export declare function serverLayer(file: string): string | null;
export declare const serverLayers: unknown;
