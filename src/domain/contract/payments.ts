/** Payments on the wire (decision 043): the card gateway's trade info for the pay page's form. */

/** `GET /payment/{orderId}/tradeinfo`: what the pay page posts to the gateway in a hidden form. */
export type TradeInfo = {
  gatewayUrl: string;
  merchantId: string;
  version: string;
  tradeInfoHex: string;
  tradeInfoHash: string;
  orderNo: string;
  amountTwd: number;
};
