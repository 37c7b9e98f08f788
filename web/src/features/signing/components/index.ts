export { SigningLinkStatus } from './signing-link-status';
