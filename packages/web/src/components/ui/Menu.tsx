// Dropdown menus on Radix (keyboard: arrows, Enter, Escape, type-ahead), styled once.
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import type { ComponentProps, ReactNode } from "react";
import styles from "./Menu.module.css";

export const MenuRoot = DropdownMenu.Root;
export const MenuTrigger = DropdownMenu.Trigger;

export function MenuContent({
  children,
  align = "start",
  side = "bottom",
  label,
}: {
  children: ReactNode;
  align?: "start" | "end";
  side?: "bottom" | "top" | "right";
  label?: string;
}) {
  return (
    <DropdownMenu.Portal>
      <DropdownMenu.Content
        className={styles.content}
        align={align}
        side={side}
        sideOffset={6}
        aria-label={label}
      >
        {children}
      </DropdownMenu.Content>
    </DropdownMenu.Portal>
  );
}

export function MenuItem({ className, ...props }: ComponentProps<typeof DropdownMenu.Item>) {
  return <DropdownMenu.Item className={[styles.item, className].filter(Boolean).join(" ")} {...props} />;
}

export function MenuRadioGroup(props: ComponentProps<typeof DropdownMenu.RadioGroup>) {
  return <DropdownMenu.RadioGroup {...props} />;
}

export function MenuRadioItem({ className, ...props }: ComponentProps<typeof DropdownMenu.RadioItem>) {
  return <DropdownMenu.RadioItem className={[styles.item, className].filter(Boolean).join(" ")} {...props} />;
}

export function MenuLabel({ children }: { children: ReactNode }) {
  return <DropdownMenu.Label className={styles.label}>{children}</DropdownMenu.Label>;
}

export function MenuSeparator() {
  return <DropdownMenu.Separator className={styles.separator} />;
}

export function MenuMeta({ children }: { children: ReactNode }) {
  return <span className={styles.itemMeta}>{children}</span>;
}
