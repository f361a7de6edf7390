import { useEffect, useRef } from 'react';

/**
 * Once a modal dialog is gone (it makes the rest of the page inert while open), focus goes back
 * to what `target` names: the button that opened it, or what replaced that button.
 */
export function useFocusAfterDialog(open: boolean, target: () => HTMLElement | null): void {
  const wasOpen = useRef(false);
  // Runs after every render that gives a new target too: it acts only once the dialog closed.
  useEffect(() => {
    if (open) {
      wasOpen.current = true;
      return;
    }
    if (!wasOpen.current) return;
    wasOpen.current = false;
    target()?.focus();
  }, [open, target]);
}
