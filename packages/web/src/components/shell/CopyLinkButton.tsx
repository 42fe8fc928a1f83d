// "Copy link" of the top bar: the current URL, filters and open record included, to the
// clipboard, so a page can be handed to someone exactly as it looks. Says so when the browser
// refuses the clipboard rather than pretending it worked.
import { Check, Link2 } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "../ui/Button";
import styles from "./Shell.module.css";
import { useToast } from "../ui/Toast";

export function CopyLinkButton() {
  const toast = useToast();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(window.location.href);
      setCopied(true);
      toast("Link copied");
    } catch {
      toast("The browser did not allow copying: copy the address bar instead");
    }
  };
  return (
    <Button variant="ghost" size="sm" onClick={() => void copy()} aria-label="Copy link to this page">
      {copied ? <Check size={16} aria-hidden="true" /> : <Link2 size={16} aria-hidden="true" />}
      <span className={styles.actionLabel}>{copied ? "Copied" : "Copy link"}</span>
    </Button>
  );
}
