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
  // Low priority: the logo is decoration beside the words the payer reads, its box sized by the
  // stylesheet. At the browser's own priority (high, for an image in view) it was the largest
  // paint's last request on a slow network, a round trip after the words were painted.
  return (
    <img
      className="merchant-logo"
      src={image}
      alt=""
      fetchPriority="low"
      onError={() => setFailed(true)}
    />
  );
}
