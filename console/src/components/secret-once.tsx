import { useState } from 'preact/hooks';

/** A secret the API returns once (a key, a SIP password, a signing secret): shown here, then gone. */
export function SecretOnce({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div class="notice secret" role="status">
      <strong>{label}</strong>
      <p class="muted">
        Shown once: copy it now. Only its hash (or an encrypted copy) is kept; it cannot be shown again.
      </p>
      <code class="secret-value" data-testid="secret-value">
        {value}
      </code>
      <div class="actions">
        <button
          type="button"
          onClick={() =>
            navigator.clipboard?.writeText(value).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" class="secondary" onClick={onDone}>
          I have saved it
        </button>
      </div>
    </div>
  );
}
