/**
 * A toast a machine asks for: the texts are the spec's, so they live with the behaviour, and the view only shows
 * them. Child machines `report` it; the screen machine passes it on to the view.
 */
export type NoticeTone = 'success' | 'error' | 'info' | 'warning';

export interface Notice {
  type: 'notice.show';
  tone: NoticeTone;
  text: string;
}

export const notice = (tone: NoticeTone, text: string): Notice => ({ type: 'notice.show', tone, text });
