import { useId } from 'react';
import type { ComponentPropsWithRef, ReactNode } from 'react';

const CONTROL =
  'w-full rounded-lg border border-border bg-surface px-3 py-2 text-fg placeholder:text-muted/70 focus:border-accent focus:outline-none focus:ring-2 focus:ring-ring/30 aria-[invalid=true]:border-danger';

interface FieldShellProps {
  label: ReactNode;
  error?: string | null;
  hint?: ReactNode;
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
}

function FieldShell({ label, error, hint, children }: FieldShellProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-fg">
        {label}
      </label>
      {children({ id, describedBy, invalid: Boolean(error) })}
      {hint && !error && (
        <p id={hintId} className="text-xs text-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
    </div>
  );
}

// Each field takes a ref to its control (react-hook-form's register() passes one).
type InputFieldProps = ComponentPropsWithRef<'input'> & {
  label: ReactNode;
  error?: string | null;
  hint?: ReactNode;
};

export function InputField({ label, error, hint, className = '', ...props }: InputFieldProps) {
  return (
    <FieldShell label={label} error={error} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          className={`${CONTROL} h-10 ${className}`}
          {...props}
        />
      )}
    </FieldShell>
  );
}

type PasswordFieldProps = Omit<InputFieldProps, 'type' | 'dir' | 'autoComplete'> & {
  /** `current-password` for re-authentication, `new-password` when choosing one (browsers offer to generate it). */
  autoComplete: 'current-password' | 'new-password';
};

// Passwords are typed left to right whatever the interface direction, and never shown.
export function PasswordField(props: PasswordFieldProps) {
  return <InputField type="password" dir="ltr" {...props} />;
}

type EmailFieldProps = Omit<InputFieldProps, 'type' | 'dir' | 'autoComplete'>;

// Addresses are Latin-script and left to right even in an Arabic interface.
export function EmailField(props: EmailFieldProps) {
  return <InputField type="email" autoComplete="email" dir="ltr" {...props} />;
}

type TextareaFieldProps = ComponentPropsWithRef<'textarea'> & {
  label: ReactNode;
  error?: string | null;
  hint?: ReactNode;
};

export function TextareaField({ label, error, hint, className = '', ...props }: TextareaFieldProps) {
  return (
    <FieldShell label={label} error={error} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <textarea
          id={id}
          dir="auto"
          aria-describedby={describedBy}
          aria-invalid={invalid}
          className={`${CONTROL} min-h-32 ${className}`}
          {...props}
        />
      )}
    </FieldShell>
  );
}

type SelectFieldProps = ComponentPropsWithRef<'select'> & {
  label: ReactNode;
  error?: string | null;
  hint?: ReactNode;
};

export function SelectField({ label, error, hint, className = '', children, ...props }: SelectFieldProps) {
  return (
    <FieldShell label={label} error={error} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <select
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          className={`${CONTROL} h-10 ${className}`}
          {...props}
        >
          {children}
        </select>
      )}
    </FieldShell>
  );
}

type CheckboxProps = Omit<ComponentPropsWithRef<'input'>, 'type'> & {
  label: ReactNode;
  error?: string | null;
};

export function Checkbox({ label, error, className = '', ...props }: CheckboxProps) {
  const id = useId();
  return (
    <div className="space-y-1">
      <div className="flex items-start gap-2.5">
        <input
          id={id}
          type="checkbox"
          aria-invalid={Boolean(error)}
          aria-describedby={error ? `${id}-error` : undefined}
          className={`mt-1 size-4 shrink-0 accent-[var(--accent)] ${className}`}
          {...props}
        />
        <label htmlFor={id} className="text-sm text-fg">
          {label}
        </label>
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
    </div>
  );
}
