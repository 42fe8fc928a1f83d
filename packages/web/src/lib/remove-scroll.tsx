// Scroll locking for Radix's modal layers (dialogs, menus) without a <style> element: the
// react-remove-scroll package injects one (react-style-singleton), which the dashboard's CSP
// (style-src 'self') refuses. vite.config.ts resolves "react-remove-scroll" to this module,
// which locks the page through the CSSOM instead (allowed) and renders what Radix asks for.
import { type ElementType, forwardRef, type HTMLAttributes, type ReactNode, useEffect } from "react";

let locks = 0;
let previousOverflow = "";

function lock(): void {
  if (locks++ === 0) {
    previousOverflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
  }
}

function unlock(): void {
  if (--locks === 0) document.body.style.overflow = previousOverflow;
}

export interface RemoveScrollProps extends Omit<HTMLAttributes<HTMLElement>, "children"> {
  readonly as?: ElementType;
  readonly enabled?: boolean;
  /** Accepted for react-remove-scroll compatibility; layers stay scrollable by themselves. */
  readonly allowPinchZoom?: boolean;
  readonly shards?: unknown;
  readonly children?: ReactNode;
}

export const RemoveScroll = forwardRef<HTMLElement, RemoveScrollProps>(function RemoveScroll(
  { as: Component = "div", enabled = true, allowPinchZoom: _pinch, shards: _shards, children, ...rest },
  ref,
) {
  useEffect(() => {
    if (!enabled) return;
    lock();
    return unlock;
  }, [enabled]);
  return (
    <Component ref={ref} {...rest}>
      {children}
    </Component>
  );
});
