// @vitest-environment happy-dom
// The destructive-action dialog: the button stays disabled until the exact text is typed, the
// server's refusal is shown in the dialog, and Cancel closes it.
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../lib/api-client";
import { ConfirmDialog } from "./Dialog";

function Harness({ onConfirm, error }: { onConfirm: () => void; error?: unknown }) {
  const [open, setOpen] = useState(true);
  return (
    <>
      <span>{open ? "open" : "closed"}</span>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title="Delete Shop?"
        consequences={["Every app of the project is deleted."]}
        confirmText="shop"
        confirmLabel="Delete project"
        error={error}
        onConfirm={onConfirm}
      />
    </>
  );
}

describe("ConfirmDialog", () => {
  afterEach(cleanup);

  it("enables the action only once the exact text is typed", () => {
    const onConfirm = vi.fn();
    render(<Harness onConfirm={onConfirm} />);
    const button = screen.getByRole("button", { name: "Delete project" });
    const input = screen.getByLabelText(/Type shop to confirm/);
    expect(screen.getByText("Every app of the project is deleted.")).toBeTruthy();
    expect((button as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(input, { target: { value: "Shop" } });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(input, { target: { value: "shop" } });
    expect((button as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(button);
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it("shows the server's refusal and closes on Cancel", () => {
    render(
      <Harness
        onConfirm={() => undefined}
        error={new ApiError({ status: 404, code: "not_found", detail: "Project not found." })}
      />,
    );
    expect(screen.getByRole("alert").textContent).toContain("Project not found.");
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.getByText("closed")).toBeTruthy();
  });
});
