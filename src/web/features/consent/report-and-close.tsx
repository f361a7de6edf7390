import { useState } from 'react';
import { Button } from '../../ui/button';

/** 'Report Error & Close' (embed only): tells the parent, which closes the frame. */
export function ReportAndCloseButton({ label, onReport }: { label: string; onReport(): void }) {
  const [closing, setClosing] = useState(false);
  return (
    <Button
      variant="secondary"
      disabled={closing}
      onClick={() => {
        setClosing(true);
        onReport();
      }}
    >
      {closing ? 'Closing...' : label}
    </Button>
  );
}
