/**
 * The verification gate's notice on the evidence pages (decision 011 "The gate"): saving evidence needs a verified
 * account, so the pages say so up front and after a refusal (code 412). A module of its own: the evidence pages load
 * only this of the KYC area.
 */
import { Link } from 'react-router';
import { KycGateMsg } from '../../contract/kyc-gate.ts';

/** The verification gate (decision 011 "The gate"): the platform's message with the 去认证 link. */
export function KycGateNotice({ href, message }: { href: string; message?: string | undefined }) {
  return (
    <div className="form-error kyc-gate" role="alert" data-testid="kyc-gate">
      <p>
        {message || KycGateMsg.required} <Link to={href}>去认证</Link>
      </p>
    </div>
  );
}
