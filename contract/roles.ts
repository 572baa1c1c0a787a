// Plain constants without zod, so the login route can use them without loading zod (about 40 KB gzip).
export const roles = ['superuser', 'admin', 'user'] as const;
export type Role = (typeof roles)[number];
