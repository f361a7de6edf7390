// The schemas of the answers the page parses, by name: apiFetch (http.ts) names one, and loads
// this module, with zod, at the page's first call, not with the page itself: the consent's first
// screen, drawn by the server, is taken over without parsing anything (src/web/main.tsx).
import './zod-config';

export {
  ZAuthMeResponse,
  ZDiscoveryResponse,
  ZGrantChallengeResponse,
  ZGrantSignatureResponse,
  ZLoginResponse,
  ZOkResponse,
  ZPasskeyRegisterResponse,
  ZPasskeyRegistrationOptionsResponse,
  ZPasskeyRemovalAnswer,
  ZPasskeyRemovalCancelResponse,
  ZPasskeyRemoveResponse,
  ZPasskeysResponse,
  ZPhoneCodeResponse,
  ZPublicConfigResponse,
  ZStepUpResponse,
  ZWebAuthnOptionsResponse,
} from '../../domain/schemas/auth';
export {
  ZChipPurchaseResponse,
  ZTerminalFetchKeysResponse,
} from '../../domain/schemas/card-terminal';
export {
  ZCardChargeResponse,
  ZCardCompleteResponse,
  ZEncryptionPublicKeyResponse,
  ZSaveCardResponse,
} from '../../domain/schemas/card';
export { ZDeclineResponse, ZGrantResponse } from '../../domain/schemas/consent-api';
export { ZConsentReadResponse } from '../../domain/schemas/consent';
export { ZConsentRecordResponse, ZReceiptResponse } from '../../domain/schemas/consent-record';
export { ZFormReadResponse, ZSaveFormSectionResponse } from '../../domain/schemas/form';
export {
  ZPayerConsentsResponse,
  ZRevocationChallengeResponse,
  ZRevokeConsentResponse,
} from '../../domain/schemas/payer-consents';
export {
  ZCancelAttemptResponse,
  ZPaymentStateResponse,
  ZStreamTicketResponse,
  ZTransferConfirmResponse,
  ZTransferDetailsResponse,
} from '../../domain/schemas/payment';
export {
  ZSandboxFixturesResponse,
  ZSandboxTerminalReadResponse,
} from '../../domain/schemas/sandbox';
export {
  ZBvnCodeResponse,
  ZBvnStatusResponse,
  ZPhoneChangeResponse,
} from '../../domain/schemas/identity';
export {
  ZAccountSearchResponse,
  ZBvnAccountsResponse,
  ZDeleteAccountResponse,
  ZUserAccountsResponse,
} from '../../domain/schemas/user-account';
export {
  ZAltServiceConfirmResponse,
  ZConfirmAccountLinkPaymentResponse,
  ZCreateAccountLinkResponse,
  ZLinkFromPaymentResponse,
} from '../../domain/schemas/account-link';
