import { SHARE_PAGE_SIZE } from '../contract/shares';
import type { PagerInput } from './pager.machine';
import { deleteRecord, type ActRecordEvent, type RecordEditorInput } from './record-editor.machine';
import { SHARING_STOPPED, STOP_SHARING_FAILED } from './share.machine';

/**
 * The Shared Links page (/shared-links, issue 28): the links a person has made to their conversations, and stopping
 * one. Not in the spec; it follows the product's other lists. The page's machine is the shared record editor
 * (machines/record-editor.machine.ts) with this input and `revokeLink` events:
 *
 * The list: SHARE_PAGE_SIZE a page with page buttons, newest first. 'Stop sharing' (a delete) asks first (`confirming`);
 * `act.confirm` -> `acting` (DELETE /shares/{shareId}) -> 'Sharing stopped' and the list read again; a link
 * already gone (404: stopped from another tab) is the same outcome; any other failure says 'Failed to stop
 * sharing' (never the server's sentence: the only refusal it gives is the 404), keeps the link listed and the
 * question open (back to `confirming`).
 */

export const SHARED_LINKS_FETCH_FAILED = 'Failed to fetch shared links';

export const sharedLinksListInput: PagerInput = {
  pageSize: SHARE_PAGE_SIZE,
  mode: 'replace',
  messages: { load: SHARED_LINKS_FETCH_FAILED, loadMore: SHARED_LINKS_FETCH_FAILED },
};

export const sharedLinksInput: RecordEditorInput = {
  list: sharedLinksListInput,
  act: { askAgain: true, goneIsDone: true, serverSentence: false },
};

/** The link a confirmation is about: its id, and its title for the question. */
export interface Revocation {
  shareId: string;
  title: string;
}

/** 'Stop sharing' on a link: the question about it. */
export const revokeLink = (link: Revocation): ActRecordEvent =>
  deleteRecord({ shareId: link.shareId, title: link.title }, { deleted: SHARING_STOPPED, failed: STOP_SHARING_FAILED });
