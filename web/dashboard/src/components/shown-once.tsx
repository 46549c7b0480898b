import { useState } from 'preact/hooks';

/** A secret the service shows this once (a key, a signing secret), with a copy button. */
export function ShownOnce({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin, or refused): the field is selected for the person to copy.
      (document.getElementById('shown-once') as HTMLInputElement | null)?.select();
    }
  };
  return (
    <div class="shown-once" role="status">
      <label for="shown-once">{label}</label>
      <p class="muted small">Shown this once: copy it now and keep it somewhere safe.</p>
      <div class="row">
        <input id="shown-once" readOnly value={value} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" onClick={copy}>
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" class="secondary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
