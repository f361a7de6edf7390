import { QRCodeSVG } from 'qrcode.react';

/** The QR code's side; its placeholder (consent-side-panel.css `.qr-placeholder`) is as wide. */
const SHARE_QR_SIZE_PX = 168;

/** 'Share Consent': a QR code of this page for a phone (spec §2 Desktop side panel). */
export function ShareQr({ url }: { url: string }) {
  return (
    <QRCodeSVG
      value={url}
      size={SHARE_QR_SIZE_PX}
      marginSize={2}
      role="img"
      aria-label="QR code of this consent's page"
    />
  );
}
