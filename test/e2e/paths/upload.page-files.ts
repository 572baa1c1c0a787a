import { expect, type Page } from '@playwright/test';
import { messageBox } from './paths-support';

/** A file given to the page: dropped, pasted or picked. */
export interface PageFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** Crosses into the page as base64 (a Buffer does not survive `evaluate`). */
const wire = (files: PageFile[]) => files.map((f) => ({ name: f.name, type: f.mimeType, data: f.buffer.toString('base64') }));

/** Picks the files with the input box's file picker. */
export async function pickFiles(page: Page, files: PageFile[]) {
  await page.getByTestId('attach-files-input').setInputFiles(files);
}

/** Drags the files over the input box (the dashed border shows), then drops them, as a person does. */
export async function dropFiles(page: Page, files: PageFile[]) {
  const transfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([Uint8Array.from(atob(f.data), (c) => c.charCodeAt(0))], f.name, { type: f.type }));
    return dt;
  }, wire(files));
  const box = messageBox(page);
  await box.dispatchEvent('dragenter', { dataTransfer: transfer });
  await expect(page.locator('form [data-dragging]')).toHaveCSS('border-style', 'dashed');
  await box.dispatchEvent('dragover', { dataTransfer: transfer });
  await box.dispatchEvent('drop', { dataTransfer: transfer });
  await expect(page.locator('form [data-dragging]')).toHaveCount(0);
}

/** Pastes the files into the text area with no text, as a screenshot pasted from the clipboard. */
export async function pasteFiles(page: Page, files: PageFile[]) {
  await messageBox(page).evaluate((el, list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([Uint8Array.from(atob(f.data), (c) => c.charCodeAt(0))], f.name, { type: f.type }));
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, wire(files));
}
