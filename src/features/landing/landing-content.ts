// The landing page's words (administration spec: Landing page and section 1), apart from its markup.

export interface SamplePrompt {
  title: string;
  /** What the card puts in the message box. */
  prompt: string;
}

export const SAMPLE_PROMPTS: SamplePrompt[] = [
  { title: 'Analyze Document', prompt: 'Summarise the attached quarterly report and list the three biggest risks it mentions.' },
  { title: 'Generate Image', prompt: 'Create an image of a friendly robot helping office staff plan their week.' },
  { title: 'Write Paper/Essay', prompt: 'Write a 500-word essay on how AI assistants can help small teams work better.' },
  { title: 'Brainstorm Ideas', prompt: 'Brainstorm ten ideas for our next staff engagement event, with a budget for each.' },
];

export const FEATURES = [
  { title: 'Search The Web', text: 'Ask about today: Tanya searches the web, reads the pages and tells you where each answer came from.' },
  { title: 'Document Upload', text: 'Attach PDFs, Word, Excel, PowerPoint files and images, then ask about them in your own words.' },
  { title: 'Active Reasoning', text: 'For the hard questions Tanya thinks step by step before it answers, and you choose how hard it tries.' },
] as const;

export const CLAIMS = [
  { title: 'Private chats', text: 'Your conversations are kept private to you and your organisation.' },
  { title: 'Never used for training', text: 'Nothing you type or upload is ever used to train AI models.' },
  { title: 'Always on', text: 'A backup AI takes over when the main one is down, so work does not stop.' },
  { title: 'Single sign-on', text: 'Staff sign in with their Microsoft work account or your own directory.' },
] as const;

export const FAQ = [
  {
    question: 'Why choose Tanya for my organisation?',
    answer:
      'Tanya gives every member of staff a capable AI assistant that can search the web, read your documents and images, and reason through hard problems, while your administrators manage departments, usage and policy in one place.',
  },
  {
    question: 'How much does it cost?',
    answer: 'Start with 100 users at RM60 per user per month. Contact us for larger teams or an education plan.',
  },
  {
    question: 'How is our data protected?',
    answer:
      'Chats are private to each person and stay within your organisation, are never used for training, and every sign-in, including single sign-on with Microsoft or your own directory, is checked by our server.',
  },
] as const;
