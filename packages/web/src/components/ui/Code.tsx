// Code and secrets as text only (never HTML), each with a copy button that says when it copied.
import { Check, Copy } from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";
import styles from "./Code.module.css";

function useCopy(text: string): [boolean, () => void] {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), 2000);
    return () => window.clearTimeout(timer);
  }, [copied]);
  const copy = () => {
    void navigator.clipboard?.writeText(text).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return [copied, copy];
}

function CopyLabel({ copied, what }: { copied: boolean; what: string }) {
  return (
    <>
      {copied ? <Check size={14} aria-hidden="true" /> : <Copy size={14} aria-hidden="true" />}
      <span>{copied ? "Copied" : "Copy"}</span>
      <span className="visually-hidden"> {what}</span>
    </>
  );
}

export function CodeBlock({ code, label, title }: { code: string; label: string; title?: ReactNode }) {
  const [copied, copy] = useCopy(code);
  return (
    <div className={styles.block}>
      <div className={styles.toolbar}>
        <span>{title ?? label}</span>
        <button type="button" className={styles.copy} onClick={copy}>
          <CopyLabel copied={copied} what={label} />
        </button>
      </div>
      <pre className={styles.pre} tabIndex={0} aria-label={label}>
        <code>{code}</code>
      </pre>
      <span className="visually-hidden" role="status">
        {copied ? `${label} copied to the clipboard` : ""}
      </span>
    </div>
  );
}

/** A secret shown once (an API key), selectable, with a copy button. */
export function SecretValue({ value, label }: { value: string; label: string }) {
  const [copied, copy] = useCopy(value);
  return (
    <div className={styles.secret}>
      <code className={styles.secretValue} aria-label={label} data-secret="">
        {value}
      </code>
      <button type="button" className={styles.inlineCopy} onClick={copy}>
        <CopyLabel copied={copied} what={label} />
      </button>
      <span className="visually-hidden" role="status">
        {copied ? `${label} copied to the clipboard` : ""}
      </span>
    </div>
  );
}

export function Mono({ children }: { children: ReactNode }) {
  return <code className={styles.mono}>{children}</code>;
}
