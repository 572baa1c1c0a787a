import { z } from 'zod';
import { choiceField, limitField, pageField, queryText, tagsQuery } from './fields';

export const tipLevels = ['beginner', 'intermediate', 'advanced'] as const;
export type TipLevel = (typeof tipLevels)[number];
/** Whom a tip is written for; 'everyone' is the general tips. */
export const tipPersonas = ['everyone', 'writer', 'analyst', 'manager'] as const;
export type TipPersona = (typeof tipPersonas)[number];

/** Spec section 9. */
export const TIP_PAGE_SIZE = 10;

export const tip = z.object({
  /** A stable slug. */
  id: z.string(),
  title: z.string(),
  /** Reading time, e.g. '2 min'. */
  duration: z.string(),
  level: z.enum(tipLevels),
  persona: z.enum(tipPersonas),
  tags: z.array(z.string()),
  /** Markdown. */
  content: z.string(),
});
export type Tip = z.infer<typeof tip>;

export const tipListQuery = z.object({
  page: pageField(),
  limit: limitField(TIP_PAGE_SIZE),
  search: queryText('search', 200).optional().describe('Case-insensitive text found in the title, the content or a tag.'),
  level: choiceField('level', tipLevels).optional(),
  persona: choiceField('persona', tipPersonas).optional().describe("Exactly this persona ('everyone' is the general tips)."),
  tags: tagsQuery(),
});
export type TipListQuery = z.input<typeof tipListQuery>;

export const tipList = z.object({
  tips: z.array(tip),
  total: z.number().int(),
  total_pages: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type TipList = z.infer<typeof tipList>;
