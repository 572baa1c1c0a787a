import type { Tip } from '../../contract/tips';

// The tips the Tips modal shows, in this order. The database is made to match this list on every start
// (services/tips.ts syncTips): edit a text here and it is updated, remove a tip and it goes. `id` is the stable
// slug of a tip: change it only to replace the tip by another. Tags are written as stored: trimmed, no commas,
// each once.

export const TIPS: readonly Tip[] = [
  {
    id: 'ask-clearly',
    title: 'Ask clearly: context, task and format',
    duration: '2 min',
    level: 'beginner',
    persona: 'everyone',
    tags: ['prompting', 'basics'],
    content: `The assistant only knows what you tell it. A good question usually has three parts:

1. **Context**: who you are and what the answer is for. *"I work in payroll and I am writing to new staff."*
2. **Task**: what you want done, with a verb. *"Explain how overtime is paid."*
3. **Format**: how the answer should look. *"In five bullet points, in plain English, under 120 words."*

Compare:

- *Weak*: "overtime rules"
- *Better*: "I am onboarding new warehouse staff. Explain how overtime is calculated in our company's terms, as five short bullet points they can read on a phone."

If the first answer misses, do not start over: say what to change ("shorter", "more formal", "add an example") and the assistant revises it.`,
  },
  {
    id: 'enter-and-shift-enter',
    title: 'Enter sends, Shift+Enter adds a new line',
    duration: '1 min',
    level: 'beginner',
    persona: 'everyone',
    tags: ['keyboard', 'basics'],
    content: `In the message box:

- **Enter** sends your message.
- **Shift+Enter** starts a new line without sending, so you can write lists, paste tables or separate your context from your question.

The box grows as you type. A message that is empty or only spaces is not sent.

Tip: write longer requests in several short paragraphs (context, then task, then format). They are easier for you to check and for the assistant to follow.`,
  },
  {
    id: 'follow-up-in-the-same-conversation',
    title: 'Keep going in the same conversation, start a new one for a new topic',
    duration: '2 min',
    level: 'beginner',
    persona: 'everyone',
    tags: ['conversations', 'basics'],
    content: `Within one conversation the assistant sees what was said before, so follow-ups can be short:

- "Make it shorter."
- "Now the same for the Finance team."
- "Turn that into a table."

When you move to an unrelated subject, press **New Chat**. A fresh conversation keeps earlier details from leaking into the new answer and keeps your history easy to find.

After your first question the conversation gets a title of its own in the sidebar; you can rename it at any time.`,
  },
  {
    id: 'check-the-answer',
    title: 'Check important answers before you use them',
    duration: '2 min',
    level: 'beginner',
    persona: 'everyone',
    tags: ['accuracy', 'basics'],
    content: `The assistant writes fluent text, and fluent is not the same as correct. Before you rely on an answer:

- **Numbers and dates**: recalculate anything that matters, or ask the assistant to show its working step by step.
- **Names, policies and laws**: compare with the source document or the official page.
- **Current events**: switch on **web browsing** so the answer is based on pages found now, and ask for the links.

A useful habit: ask *"What in your answer are you least sure about?"* It often points at exactly what to verify.`,
  },
  {
    id: 'attach-documents',
    title: 'Attach documents and ask about them',
    duration: '3 min',
    level: 'beginner',
    persona: 'everyone',
    tags: ['documents', 'attachments'],
    content: `You can give the assistant your own files to work with: PDF, Word (.docx), Excel (.xlsx), PowerPoint (.pptx), CSV, text and Markdown files, images (.jpg, .jpeg, .png) and audio (.mp3, .m4a).

**How to attach**

- Click the attachment button in the message box, or drag files onto it.
- Paste an image straight from the clipboard.

While a file is processed you see its progress (uploading, chunking text, creating embeddings, saving). The **Documents** button at the top of the conversation lists what is attached, and lets you remove a file.

**Ask precise questions**, for example:

- "List every deadline in the attached contract with its clause number."
- "Compare the two attached proposals on price, timeline and risks, as a table."

Document upload depends on your organisation's package.`,
  },
  {
    id: 'summarise-long-documents',
    title: 'Summaries that are actually useful',
    duration: '2 min',
    level: 'intermediate',
    persona: 'everyone',
    tags: ['documents', 'summaries', 'prompting'],
    content: `"Summarise this" gives a generic answer. Say who the summary is for and what they must decide:

> Summarise the attached audit report for the management committee. Start with the three findings that need a decision, then the actions already agreed, then everything else in one line each.

Other requests that work well on long documents:

- "What does this document ask **me** to do, and by when?"
- "Which sections disagree with each other?"
- "Quote the exact sentence that supports each point."

Asking for quotes makes it easy to check that each point really is in the document.`,
  },
  {
    id: 'web-browsing',
    title: 'Use web browsing for current information',
    duration: '2 min',
    level: 'beginner',
    persona: 'everyone',
    tags: ['web browsing', 'research'],
    content: `Without browsing, the assistant answers from what it learned during training, which stops at a point in the past. Switch **web browsing** on in the message box when you need:

- recent news, prices, releases or regulations;
- a source you can open and check.

Good browsing questions name what to look for and how to report it:

> Find the three most recent announcements from the central bank about interest rates. For each: date, one-line summary, link.

Web browsing and image generation cannot be on at the same time. On the premium package both are in the features menu; other packages show a single browsing switch.`,
  },
  {
    id: 'image-generation',
    title: 'Generate images from a description',
    duration: '2 min',
    level: 'intermediate',
    persona: 'everyone',
    tags: ['images', 'premium'],
    content: `On the premium package, choose **Image Generation** in the features menu of the message box and describe the picture you want.

Describe, in this order:

1. **Subject**: "a small team around a whiteboard"
2. **Style**: "flat illustration", "photo", "watercolour"
3. **Composition and colours**: "wide format, company yellow and grey, plenty of empty space on the left for a title"

Click a generated image to see it full size. If it is not right, say what to change ("same scene, but brighter and without text") rather than starting again.

Image generation and web browsing cannot be used together.`,
  },
  {
    id: 'reasoning-effort',
    title: 'Reasoning effort: low or medium',
    duration: '2 min',
    level: 'intermediate',
    persona: 'analyst',
    tags: ['reasoning', 'accuracy'],
    content: `The reasoning-effort switch in the message box sets how long the assistant thinks before it answers. Each click toggles between **low** (the default) and **medium**.

- **Low**: quick answers. Right for rewriting, translating, short explanations and most everyday questions.
- **Medium**: the assistant works through the problem more carefully before answering. Worth it for calculations, multi-step plans, comparing options against several criteria, and tricky logic.

Medium takes longer to reply. Use it when a wrong answer would cost you more than the wait, then switch back to low.`,
  },
  {
    id: 'share-a-conversation',
    title: 'Share a conversation with colleagues',
    duration: '2 min',
    level: 'beginner',
    persona: 'everyone',
    tags: ['sharing', 'collaboration'],
    content: `Click **Share** at the top of a conversation to get a read-only link, then **copy** it into an e-mail or chat.

What to know:

- Only people of **your organisation** who sign in can open the link. It cannot be read from outside.
- The link shows the conversation **as it was when you shared it**. Replies still being written are not included.
- Continued the conversation? Click **Share** again: you get the **same link**, now showing the conversation up to this moment.
- **Deleting** the conversation turns the link off for good.

Readers can scroll and read, but cannot reply, edit or see your other conversations.`,
  },
  {
    id: 'prompt-library',
    title: 'Save your best prompts in the prompt library',
    duration: '2 min',
    level: 'beginner',
    persona: 'everyone',
    tags: ['prompt library', 'productivity'],
    content: `When a question worked well, keep it: use **Save to prompt library** on your message, add a few tags, and save.

Next time, open the **prompt library** from the message box:

- **Search** finds words in the prompt or its tags.
- **Tags** narrow the list, for example *report*, *email*, *finance*.
- Pick a prompt to paste it into the message box, then adjust the details before sending.

Tags are typed separated by commas (*email, customer, follow-up*). Your library is personal: nobody else can browse it in the app, your admin included.`,
  },
  {
    id: 'prompt-templates',
    title: 'Turn repeated requests into templates',
    duration: '3 min',
    level: 'intermediate',
    persona: 'manager',
    tags: ['prompt library', 'templates', 'productivity'],
    content: `If you ask for the same kind of document every week, write the request once as a template with blanks, and save it in your prompt library:

\`\`\`
Write the weekly status update for [PROJECT] for [AUDIENCE].
Inputs: [PASTE NOTES]
Structure: progress this week, risks (with owner), decisions needed, next week.
Tone: factual, no jargon. Maximum 250 words.
\`\`\`

When you use it, replace each [BLANK]. Templates give you consistent results, save typing, and are easy to improve: edit the saved prompt whenever you find a better wording.

Tag templates by what they produce (*status update*, *minutes*, *job ad*) so they are quick to find.`,
  },
  {
    id: 'edit-a-question',
    title: 'Edit a question instead of adding a correction',
    duration: '1 min',
    level: 'beginner',
    persona: 'everyone',
    tags: ['conversations', 'editing'],
    content: `Made a typo or forgot a detail? Use **edit** on your own message. The question is replaced, everything after it is removed, and the assistant answers the edited question afresh.

This is often better than sending a correction as a new message: the wrong version no longer sits in the conversation, so it cannot confuse later answers.

Only your own messages can be edited. Copy anything you want to keep from the later replies first: they are replaced.`,
  },
  {
    id: 'copy-to-word',
    title: 'Copy replies into Word with their formatting',
    duration: '1 min',
    level: 'beginner',
    persona: 'writer',
    tags: ['copy', 'word', 'formatting'],
    content: `The **copy** button under a reply copies it **with formatting for Word**: headings, bold text, lists, tables and code keep their shape when you paste into Word, Outlook or most editors.

If your browser does not allow formatted copying, the reply is copied as clean plain text instead, and a message tells you which one happened.

For documents, ask the assistant for the structure you want before copying: *"Use headings for each section and a table for the budget"* saves reformatting afterwards.`,
  },
  {
    id: 'search-conversations',
    title: 'Find an old conversation',
    duration: '1 min',
    level: 'beginner',
    persona: 'everyone',
    tags: ['search', 'conversations'],
    content: `Type in **Search conversations...** at the top of the conversation list. The search starts from three characters and looks in titles **and** in the messages themselves, matching the beginnings of words: *budg* finds *budget* and *budgeting*.

Results show a short extract around the match. Clear the box to see all your conversations again, grouped by Today, Yesterday, Last 7 days and Older.

Give important conversations a clear name (rename them in the list: **Enter** saves, **Escape** cancels) so they are easy to find later.`,
  },
  {
    id: 'rename-and-tidy',
    title: 'Keep your conversation list tidy',
    duration: '1 min',
    level: 'beginner',
    persona: 'everyone',
    tags: ['conversations', 'organisation'],
    content: `A few habits keep the list useful:

- **Rename** conversations you will come back to, with a name you would search for: *"Q3 budget: travel costs"*. Titles can be up to 200 characters.
- **Delete** conversations you no longer need. Deleting removes the messages and turns off any link you shared.
- Use **one conversation per topic**: mixing subjects makes both the answers and the search results worse.`,
  },
  {
    id: 'data-privacy',
    title: 'Your data: what stays private and what your admin sees',
    duration: '3 min',
    level: 'beginner',
    persona: 'everyone',
    tags: ['privacy', 'security', 'admin'],
    content: `**What your organisation's admin sees.** The usage dashboard and reports show figures: how many questions each person and department asked, how many files were attached and their size, and how many tokens were used. They are for budgeting and planning. They do not show what you asked or what the assistant answered.

**What others can see.** Your conversations and your prompt library are yours. A conversation becomes readable by colleagues only when you share its link, and then only by people of your organisation who sign in.

**What to keep out.** Your questions and attached files are sent to the AI model your organisation has chosen to produce the answer. Follow your organisation's rules on confidential data, and never paste passwords, access keys or other secrets into a conversation.

**Organisation rules.** Your admin can set a policy that every answer follows, for example about tone or topics.`,
  },
  {
    id: 'token-limit',
    title: 'When a reply stops at the length limit',
    duration: '2 min',
    level: 'intermediate',
    persona: 'everyone',
    tags: ['errors', 'long answers'],
    content: `Every reply has a maximum length. When an answer reaches it, the reply ends with a **token limit** notice.

What to do:

- Reply **"Continue from where you stopped"**: the assistant picks up the thread.
- Better, split the work: *"First give me the outline only"*, then *"Now write section 1"*, and so on.
- Ask for a tighter format: a table, bullet points, or a word limit.

Very long conversations also carry a lot of history into every answer. For a new part of the job, a new conversation that starts with a short summary often works better.`,
  },
  {
    id: 'when-something-fails',
    title: 'If a reply fails',
    duration: '1 min',
    level: 'beginner',
    persona: 'everyone',
    tags: ['errors', 'troubleshooting'],
    content: `Now and then a reply cannot be produced, for example when the model service is busy or the network drops. You then see *"Sorry, I couldn't process your request. Please try again."*

- Use **Refresh messages**: a reply that was finished on the server while your connection was down appears.
- Otherwise **edit** your question and send it again, or ask again.
- If it keeps happening, use **Report an Issue** and say what you were doing: it reaches the team that runs the service.`,
  },
  {
    id: 'tables-from-data',
    title: 'Work with spreadsheets and CSV files',
    duration: '3 min',
    level: 'intermediate',
    persona: 'analyst',
    tags: ['data', 'spreadsheets', 'documents'],
    content: `Attach an Excel or CSV file and ask questions about it in plain words:

- "Which five suppliers had the largest increase in spend compared with last year?"
- "Group the rows by region and give totals as a table."
- "Are there duplicate invoice numbers?"

For reliable results:

1. Describe the columns if their names are cryptic (*"AMT is the amount in ringgit, incl. tax"*).
2. Ask for the **method** as well as the result: *"explain how you calculated it"*.
3. Spot-check two or three figures against the file yourself.

Switch reasoning effort to **medium** for multi-step calculations.`,
  },
  {
    id: 'structured-outputs',
    title: 'Ask for tables, checklists and templates',
    duration: '2 min',
    level: 'intermediate',
    persona: 'analyst',
    tags: ['formatting', 'prompting'],
    content: `The assistant can lay out its answer in the shape you will actually use. Ask for it explicitly:

- **Table**: "Compare the three options as a table with columns cost, effort, risk, recommendation."
- **Checklist**: "Give me a checklist for closing the month, grouped by day."
- **Decision memo**: "One paragraph background, options with pros and cons, recommendation."
- **Code or formulas**: "Write the Excel formula, then explain each part."

Tables and lists keep their formatting when you copy the reply into Word.`,
  },
  {
    id: 'write-for-an-audience',
    title: 'Write for your audience and tone',
    duration: '2 min',
    level: 'beginner',
    persona: 'writer',
    tags: ['writing', 'tone'],
    content: `Tell the assistant **who will read** the text and **how it should sound**:

> Rewrite this announcement for all staff, including people who are not native English speakers. Friendly and clear, short sentences, no acronyms.

Useful variations:

- "Make it more formal for a letter to a regulator."
- "Same content as an internal chat message, three lines."
- "Write it in Bahasa Malaysia, then give the English version."

Paste an example of a text you like and ask for *"the same style"*: examples describe tone better than adjectives.`,
  },
  {
    id: 'review-and-improve-drafts',
    title: 'Let the assistant review your draft',
    duration: '2 min',
    level: 'intermediate',
    persona: 'writer',
    tags: ['writing', 'editing', 'review'],
    content: `You do not have to let the assistant write from scratch. It is often more useful as a reviewer:

- "Point out unclear sentences in this draft and suggest a fix for each. Do not rewrite the rest."
- "What questions will the finance director ask after reading this?"
- "Check this e-mail for anything that could sound rude."

Asking for **suggestions with reasons**, rather than a full rewrite, keeps your voice and shows you exactly what changed.`,
  },
  {
    id: 'meeting-notes-to-actions',
    title: 'From meeting notes to actions',
    duration: '2 min',
    level: 'beginner',
    persona: 'manager',
    tags: ['meetings', 'productivity'],
    content: `Paste your rough notes, or attach them as a document, and ask:

> From these notes, list the decisions made, then the actions as a table: action, owner, due date. Mark anything without an owner as "unassigned".

Then follow up:

- "Draft the follow-up e-mail to the attendees."
- "What was discussed but not decided?"

Check names and dates before sending: the assistant can only use what is in the notes.`,
  },
  {
    id: 'plan-and-decide',
    title: 'Think a decision through with the assistant',
    duration: '3 min',
    level: 'advanced',
    persona: 'manager',
    tags: ['decisions', 'planning', 'reasoning'],
    content: `The assistant is a good sparring partner for decisions. Give it the situation, the options and what matters, then ask it to challenge you:

1. "Here are two options for restructuring the support team, and our constraints: ... Compare them against cost, service level and staff impact."
2. "Argue against the option I prefer as strongly as you can."
3. "What would have to be true for the other option to be better?"
4. "Write a one-page decision note with the recommendation and the main risk."

Switch reasoning effort to **medium** for this kind of work. The decision stays yours: use the answers to see blind spots, not to replace judgement.`,
  },
  {
    id: 'give-examples',
    title: 'Show an example of what you want',
    duration: '2 min',
    level: 'advanced',
    persona: 'everyone',
    tags: ['prompting', 'examples'],
    content: `When a description is not enough, show one or two examples of the output you expect. The assistant follows the pattern closely.

\`\`\`
Classify each customer comment as Praise, Complaint or Question.
Examples:
"Delivery was fast, thank you!" -> Praise
"Where can I download my invoice?" -> Question
Now classify:
1. "The app logs me out every day."
2. ...
\`\`\`

Examples work for tone, length, layout and classification alike. Keep them short, and make them differ from each other so the assistant learns the rule, not one case.`,
  },
  {
    id: 'send-feedback',
    title: 'Tell us what works and what does not',
    duration: '1 min',
    level: 'beginner',
    persona: 'everyone',
    tags: ['feedback', 'support'],
    content: `Two forms reach the team behind the assistant:

- **Submit Feedback**: rate your experience from poor to excellent and add a comment.
- **Report an Issue**: describe something that went wrong. Say what you did, what you expected and what happened instead.

Both are saved with your account and organisation. Please do not paste confidential content into them.`,
  },
];
