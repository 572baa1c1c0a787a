import { paths } from '../../contract/api-paths';
import type { ContactFormRequest, ContactFormSettings } from '../../contract/contact-form';
import type { MessageOnly } from '../../contract/envelope';
import { api } from './http';

/** What the landing page's contact form needs: the reCAPTCHA site key and script, the staff domain (public). */
export async function fetchContactFormSettings(): Promise<ContactFormSettings> {
  return (await api.get<ContactFormSettings>(paths.contactFormSettings, { noRefresh: true })).data;
}

/** The 'Let's Register!' lead (public); the server's message on success. */
export async function sendContactForm(body: Required<ContactFormRequest>): Promise<{ message?: string }> {
  const res = await api.post<MessageOnly>(paths.contactForm, body, { noRefresh: true });
  return { message: res.data?.message ?? res.message };
}
