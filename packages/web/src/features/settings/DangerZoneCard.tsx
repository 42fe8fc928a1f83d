// The "Danger zone" card of a settings page: one destructive action, said plainly, behind a
// confirmation that lists what goes and asks for the name typed out.
import { useMutation } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Button } from "../../components/ui/Button";
import { ConfirmDialog, useConfirmation } from "../../components/ui/Dialog";
import { Card } from "../../components/ui/Surface";
import styles from "./Settings.module.css";

export function DangerZoneCard({
  title,
  meta,
  actionLabel,
  confirm,
  remove,
  onRemoved,
}: {
  /** The action, e.g. "Delete this app". */
  title: string;
  meta: ReactNode;
  /** The button's and the confirmation's label, e.g. "Delete app". */
  actionLabel: string;
  confirm: { title: string; description?: string; consequences: string[]; confirmText: string };
  remove: () => Promise<unknown>;
  /** After the server agreed, with the dialog closed: caches, toast, navigation. */
  onRemoved: () => Promise<void>;
}) {
  const mutation = useMutation({
    mutationFn: remove,
    onSuccess: async () => {
      confirmation.hide();
      await onRemoved();
    },
  });
  const confirmation = useConfirmation(mutation);
  return (
    <Card title="Danger zone" tone="danger">
      <div className={styles.dangerRow}>
        <div className={styles.dangerText}>
          <span className={styles.dangerTitle}>{title}</span>
          <span className={styles.dangerMeta}>{meta}</span>
        </div>
        <Button variant="dangerOutline" onClick={confirmation.show}>
          {actionLabel}
        </Button>
      </div>
      <ConfirmDialog {...confirmation.dialog} {...confirm} confirmLabel={actionLabel} />
    </Card>
  );
}
