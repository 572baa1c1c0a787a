// Chat features a person's package entitles them to (zod-free: the login route and machines/ read it).
// The server computes a user's `features` from the organisation's active package and enforces them; the SPA
// only reads them.
export const featureNames = ['browsing', 'image_generation', 'reasoning'] as const;
export type Feature = (typeof featureNames)[number];
