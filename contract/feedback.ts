import { z } from 'zod';
import { choiceField, requestBody } from './fields';

import {
  DESCRIPTION_TOO_LONG,
  FEEDBACK_DESCRIPTION_MAX_LENGTH,
  feedbackLevels,
  feedbackTypes,
  RATING_REQUIRED,
} from './feedback-constants';


export const feedbackRequest = requestBody({
  type: choiceField('type', feedbackTypes),
  level: choiceField('level', feedbackLevels)
    .nullable()
    .default(null)
    .describe('Required for feedback. A report has no rating: any level sent with one is stored as null.'),
  description: z
    .string({ error: 'description must be text' })
    .trim()
    .max(FEEDBACK_DESCRIPTION_MAX_LENGTH, DESCRIPTION_TOO_LONG)
    .nullable()
    .default(null),
}).refine((body) => body.type !== 'feedback' || body.level !== null, { error: RATING_REQUIRED, path: ['level'] });
export type FeedbackRequest = z.input<typeof feedbackRequest>;

export const feedbackReceipt = z.object({ id: z.string() });
export type FeedbackReceipt = z.infer<typeof feedbackReceipt>;
