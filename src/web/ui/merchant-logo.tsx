import { useState } from 'react';

/** The counterparty's image, or its initial when it has none or the image fails (spec §8). */
export function MerchantLogo({ name, image }: { name: string; image: string | null }) {
  const [failed, setFailed] = useState(false);
  if (!image || failed) {
    return (
      <span className="merchant-logo placeholder" aria-hidden="true">
        {name.trim().charAt(0).toUpperCase() || '?'}
      </span>
    );
  }
  return <img className="merchant-logo" src={image} alt="" onError={() => setFailed(true)} />;
}
