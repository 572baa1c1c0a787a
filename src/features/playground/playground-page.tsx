import { useEffect, useRef, useState, type ReactNode } from 'react';
import { getLocalTimeZone, today, type CalendarDate } from '@internationalized/date';
import { Copy, Pencil, Plus, Trash2 } from 'lucide-react';
import { Avatar } from '../../ui/avatar';
import { Button, ButtonLink, type ButtonSize, type ButtonVariant } from '../../ui/button';
import { Card } from '../../ui/card';
import { Checkbox } from '../../ui/checkbox';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { DatePicker } from '../../ui/date-picker';
import { ErrorBanner } from '../../ui/error-banner';
import { Modal, type ModalSize } from '../../ui/modal';
import { Notice } from '../../ui/notice';
import { PageTitle } from '../../ui/page-title';
import { Pagination } from '../../ui/pagination';
import { Select } from '../../ui/select';
import { Spinner } from '../../ui/spinner';
import { Switch } from '../../ui/switch';
import { TextArea } from '../../ui/text-area';
import { TextField } from '../../ui/text-field';
import { toast, TOAST_DURATION_MS, type ToastType } from '../../ui/toast';
import { Tooltip } from '../../ui/tooltip';

const COLOURS = [
  { name: 'Primary', value: 'rgb(222, 200, 78)', swatch: 'bg-primary' },
  { name: 'Light', value: '#F9F9F9', swatch: 'bg-surface-light' },
  { name: 'Dark', value: '#1f2937', swatch: 'bg-surface-dark' },
  { name: 'Chat light', value: '#E5E7EB', swatch: 'bg-chat-light' },
  { name: 'Chat dark', value: '#111827', swatch: 'bg-chat-dark' },
] as const;

const VARIANTS: { variant: ButtonVariant; label: string }[] = [
  { variant: 'primary', label: 'Primary' },
  { variant: 'secondary', label: 'Secondary' },
  { variant: 'ghost', label: 'Ghost' },
  { variant: 'danger', label: 'Danger' },
];

const SIZES: { size: ButtonSize; label: string }[] = [
  { size: 'sm', label: 'Small' },
  { size: 'md', label: 'Medium' },
  { size: 'lg', label: 'Large' },
];

const MODAL_SIZES: ModalSize[] = ['sm', 'md', 'lg', 'xl', '2xl', '3xl', 'full'];

const DEPARTMENTS = [
  { id: 'finance', label: 'Finance' },
  { id: 'hr', label: 'Human Resources' },
  { id: 'it', label: 'Information Technology' },
  { id: 'legal', label: 'Legal' },
  { id: 'ops', label: 'Operations' },
];

const TOASTS: { type: ToastType; label: string; message: string }[] = [
  { type: 'success', label: 'Success toast', message: 'Changes saved successfully' },
  { type: 'error', label: 'Error toast', message: 'Something went wrong. Please try again.' },
  { type: 'info', label: 'Info toast', message: 'A new version is available.' },
  { type: 'warning', label: 'Warning toast', message: 'You are close to your monthly limit.' },
];

const SECTIONS = [
  ['colours', 'Colours'],
  ['buttons', 'Buttons'],
  ['inputs', 'Inputs'],
  ['selects', 'Selects'],
  ['date-pickers', 'Date pickers'],
  ['toggles', 'Toggles'],
  ['modals', 'Modals'],
  ['tooltips', 'Tooltips'],
  ['pagination', 'Pagination'],
  ['error-messages', 'Error messages'],
  ['toasts', 'Toasts'],
] as const;

type SectionId = (typeof SECTIONS)[number][0];

function Section({ id, children, description }: { id: SectionId; children: ReactNode; description?: string }) {
  const title = SECTIONS.find(([key]) => key === id)![1];
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-6">
      <h2 id={`${id}-title`} className="text-lg font-semibold tracking-tight text-gray-900 dark:text-gray-50">
        {title}
      </h2>
      {description && <p className="mt-1 text-sm text-gray-600 dark:text-gray-300">{description}</p>}
      <Card className="mt-3 space-y-6">{children}</Card>
    </section>
  );
}

function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <h3 className="mb-3 text-xs font-semibold uppercase tracking-wide text-gray-600 dark:text-gray-300">{title}</h3>
      {children}
    </div>
  );
}

const row = 'flex flex-wrap items-center gap-3';
const grid = 'grid gap-5 sm:grid-cols-2';

function Colours() {
  return (
    <Section id="colours" description="The theme colours, available as Tailwind colours (bg-primary, bg-surface-light, ...).">
      <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-5">
        {COLOURS.map((c) => (
          <li key={c.name} className="overflow-hidden rounded-xl border border-gray-200 dark:border-gray-700">
            <div className={`h-16 ${c.swatch}`} aria-hidden="true" />
            <div className="px-3 py-2">
              <p className="text-sm font-medium text-gray-900 dark:text-gray-100">{c.name}</p>
              <p className="font-mono text-xs text-gray-600 dark:text-gray-300">{c.value}</p>
            </div>
          </li>
        ))}
      </ul>
    </Section>
  );
}

function Buttons() {
  const [saving, setSaving] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const save = () => {
    setSaving(true);
    timer.current = setTimeout(() => setSaving(false), 2000);
  };
  return (
    <Section id="buttons">
      <Group title="Variants">
        <div className={row}>
          {VARIANTS.map(({ variant, label }) => (
            <Button key={variant} variant={variant}>
              {label}
            </Button>
          ))}
        </div>
      </Group>
      <Group title="Sizes">
        <div className={row}>
          {SIZES.map(({ size, label }) => (
            <Button key={size} variant="primary" size={size}>
              {label}
            </Button>
          ))}
        </div>
      </Group>
      <Group title="With icons">
        <div className={row}>
          <Button variant="primary">
            <Plus aria-hidden="true" className="size-4" />
            New chat
          </Button>
          <Button variant="secondary">
            <Pencil aria-hidden="true" className="size-4" />
            Edit
          </Button>
          <Button variant="danger">
            <Trash2 aria-hidden="true" className="size-4" />
            Delete
          </Button>
          <ButtonLink href="#buttons" variant="ghost">
            Link styled as a button
          </ButtonLink>
        </div>
      </Group>
      <Group title="States">
        <div className={row}>
          {VARIANTS.map(({ variant, label }) => (
            <Button key={variant} variant={variant} isDisabled>
              {label} disabled
            </Button>
          ))}
          <Button variant="primary" isPending>
            Pending
          </Button>
          <Button variant="secondary" isPending={saving} onPress={save}>
            {saving ? 'Saving...' : 'Press to save'}
          </Button>
        </div>
      </Group>
      <Group title="Spinner and avatars">
        <div className={row}>
          <Spinner label="Loading" />
          <Avatar name="Nur User" />
          <Avatar name="Siti" size="sm" />
          <span className="text-sm text-gray-600 dark:text-gray-300">Initials avatars (md, sm)</span>
        </div>
      </Group>
    </Section>
  );
}

function Inputs() {
  const [name, setName] = useState('');
  const [badEmail, setBadEmail] = useState('nur@');
  return (
    <Section id="inputs">
      <div className={grid}>
        <TextField label="Full name" placeholder="Enter your name" value={name} onChange={setName} autoComplete="off" />
        <TextField label="Email" type="email" placeholder="name@company.com" autoComplete="off" isRequired />
        <TextField
          label="Password"
          type="password"
          placeholder="Enter your password"
          autoComplete="new-password"
          description="At least 8 characters"
        />
        <TextField
          label="Work email"
          type="email"
          value={badEmail}
          onChange={setBadEmail}
          autoComplete="off"
          errorMessage={/^\S+@\S+\.\S+$/.test(badEmail) ? undefined : 'Please enter a valid email address'}
        />
        <TextField label="Organisation" defaultValue="Tanya Demo Sdn Bhd" isReadOnly />
        <TextField label="Disabled field" placeholder="Not editable" isDisabled />
        <TextArea
          label="Message"
          placeholder="Type your message..."
          description="Markdown is supported."
          className="sm:col-span-2"
        />
      </div>
    </Section>
  );
}

function Selects() {
  const [department, setDepartment] = useState<string | null>(null);
  const [unit, setUnit] = useState<string | null>(null);
  return (
    <Section id="selects">
      <div className={grid}>
        <Select
          label="Department"
          placeholder="Select a department"
          items={DEPARTMENTS}
          selectedKey={department}
          onSelectionChange={setDepartment}
          description="Where you work."
        />
        <Select
          label="Unit"
          placeholder="Select a unit"
          items={[{ id: 'payroll', label: 'Payroll' }]}
          selectedKey={unit}
          onSelectionChange={setUnit}
          isRequired
          errorMessage={unit ? undefined : 'Please select a unit'}
        />
        <Select label="Disabled select" placeholder="Select a department first" items={[]} selectedKey={null} onSelectionChange={() => {}} isDisabled />
      </div>
    </Section>
  );
}

function DatePickers() {
  const [start, setStart] = useState<CalendarDate | null>(() => today(getLocalTimeZone()));
  const [deadline, setDeadline] = useState<CalendarDate | null>(null);
  return (
    <Section id="date-pickers" description="Typed as dd/mm/yyyy, or picked from the calendar.">
      <div className={grid}>
        <DatePicker label="Start date" value={start} onChange={setStart} />
        <DatePicker
          label="Deadline"
          value={deadline}
          onChange={setDeadline}
          isRequired
          errorMessage={deadline ? undefined : 'Please choose a date'}
        />
        <DatePicker label="Disabled date" value={start} onChange={() => {}} isDisabled />
      </div>
    </Section>
  );
}

function Toggles() {
  const [notifications, setNotifications] = useState(true);
  const [terms, setTerms] = useState(false);
  return (
    <Section id="toggles">
      <div className={grid}>
        <div className="flex flex-col items-start gap-4">
          <Switch isSelected={notifications} onChange={setNotifications}>
            Email notifications
          </Switch>
          <Switch isSelected={false} isDisabled>
            Disabled switch
          </Switch>
        </div>
        <div className="flex flex-col items-start gap-4">
          <Checkbox isSelected={terms} onChange={setTerms}>
            I agree to the terms of use
          </Checkbox>
          <Checkbox isIndeterminate>Some units selected</Checkbox>
          <Checkbox isSelected isDisabled>
            Disabled checkbox
          </Checkbox>
        </div>
      </div>
    </Section>
  );
}

function Modals() {
  // The size outlives the open state, so the closing animation keeps the right title and width.
  const [size, setSize] = useState<ModalSize>('md');
  const [isOpen, setIsOpen] = useState(false);
  const [confirmOpen, setConfirmOpen] = useState(false);
  return (
    <Section id="modals" description="Close with Escape, the close button, or a click outside.">
      <Group title="Sizes">
        <div className={row}>
          {MODAL_SIZES.map((s) => (
            <Button
              key={s}
              variant="secondary"
              onPress={() => {
                setSize(s);
                setIsOpen(true);
              }}
            >
              Open {s} modal
            </Button>
          ))}
        </div>
      </Group>
      <Group title="Confirm dialog">
        <Button variant="danger" onPress={() => setConfirmOpen(true)}>
          Open confirm dialog
        </Button>
      </Group>
      <Modal
        isOpen={isOpen}
        onOpenChange={setIsOpen}
        title={`Modal (${size})`}
        size={size}
        footer={
          <>
            <Button variant="secondary" onPress={() => setIsOpen(false)}>
              Cancel
            </Button>
            <Button variant="primary" onPress={() => setIsOpen(false)}>
              Got it
            </Button>
          </>
        }
      >
        <div className="space-y-3 text-sm leading-6 text-gray-700 dark:text-gray-300">
          <p>
            This is the <strong>{size}</strong> modal. On small screens every modal is a full-width sheet; from the
            small breakpoint up it is centred with this maximum width.
          </p>
          <p>The body scrolls when the content is long, while the title and the actions stay in place.</p>
          {size === 'full' &&
            Array.from({ length: 12 }, (_, i) => (
              <p key={i}>
                Paragraph {i + 1}: the full-size modal fills the viewport and keeps a scrollable body for long content
                such as policies, reports or conversation exports.
              </p>
            ))}
        </div>
      </Modal>
      <ConfirmDialog
        isOpen={confirmOpen}
        onOpenChange={setConfirmOpen}
        onConfirm={() => {
          setConfirmOpen(false);
          toast.success('Action confirmed');
        }}
      />
    </Section>
  );
}

function Tooltips() {
  return (
    <Section id="tooltips" description="Shown on hover after a short delay, and at once on keyboard focus.">
      <div className={row}>
        {(['top', 'right', 'bottom', 'left'] as const).map((placement) => (
          <Tooltip key={placement} content={`Tooltip on the ${placement}`} placement={placement}>
            <Button variant="secondary">{placement[0]!.toUpperCase() + placement.slice(1)}</Button>
          </Tooltip>
        ))}
        <Tooltip content="Copy to clipboard">
          <Button variant="ghost" aria-label="Copy" className="w-10 px-0">
            <Copy aria-hidden="true" className="size-4" />
          </Button>
        </Tooltip>
      </div>
    </Section>
  );
}

function PaginationDemo() {
  const [page, setPage] = useState(1);
  const total = 12;
  return (
    <Section id="pagination" description="Up to 5 page buttons around the current page, plus the first and the last.">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-gray-600 dark:text-gray-300" aria-live="polite">
          Page {page} of {total}
        </p>
        <Pagination page={page} totalPages={total} onPageChange={setPage} />
      </div>
    </Section>
  );
}

function ErrorMessages() {
  const [showBanner, setShowBanner] = useState(true);
  return (
    <Section id="error-messages">
      <Group title="Error banner">
        <div className="space-y-3">
          {showBanner ? (
            <ErrorBanner message="Invalid email or password" onDismiss={() => setShowBanner(false)} />
          ) : (
            <Button variant="secondary" size="sm" onPress={() => setShowBanner(true)}>
              Show the error banner again
            </Button>
          )}
          <ErrorBanner title="Upload failed" message="The file is larger than the 10 MB limit." />
        </div>
      </Group>
      <Group title="Notices">
        <div className="space-y-3">
          <Notice tone="info">Your organisation&apos;s administrator manages these settings.</Notice>
          <Notice tone="warning">
            <strong>Please complete your profile:</strong> You need to set your Department before you can access the system.
          </Notice>
          <Notice tone="success">Your password has been updated.</Notice>
        </div>
      </Group>
    </Section>
  );
}

function Toasts() {
  return (
    <Section id="toasts" description={`Each toast closes by itself after ${TOAST_DURATION_MS / 1000} seconds.`}>
      <div className={row}>
        {TOASTS.map(({ type, label, message }) => (
          <Button key={type} variant="secondary" onPress={() => toast[type](message)}>
            {label}
          </Button>
        ))}
      </div>
    </Section>
  );
}

/** /playground: every design-system piece on one public page. */
export default function PlaygroundPage() {
  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6 md:py-10">
      <PageTitle description="The building blocks of Tanya's interface, in light and dark.">Component Playground</PageTitle>
      <nav aria-label="Sections" className="mt-5">
        <ul className="flex flex-wrap gap-x-1 gap-y-1">
          {SECTIONS.map(([id, title]) => (
            <li key={id}>
              <a
                href={`#${id}`}
                className="block rounded-md px-2 py-1 text-sm text-gray-700 underline-offset-4 hover:bg-gray-100 hover:underline dark:text-gray-200 dark:hover:bg-gray-700"
              >
                {title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-8 space-y-10">
        <Colours />
        <Buttons />
        <Inputs />
        <Selects />
        <DatePickers />
        <Toggles />
        <Modals />
        <Tooltips />
        <PaginationDemo />
        <ErrorMessages />
        <Toasts />
      </div>
    </div>
  );
}
