/**
 * `PaymentMethodEnum`: every payment method value the organization API knows, kept once, here. The spec names
 * its beginning (`payment-card`, `ach`, `cash`, `check`) and some members (`bank-transfer`, `cash-deposit`,
 * `cryptocurrency`, `e-wallet`, `instant-bank-transfer`, `invoice`, `voucher`, `SEPA`, `PIX`, `UPI`) and says
 * the rest are regional and provider-named methods; the rest of this list is a set of well-known real methods.
 *
 * Spelling: lowercase words joined by dashes; the spec's upper-case scheme names (`SEPA`, `PIX`, `UPI`) and the
 * other interbank schemes of that kind (`SPEI`, `FPX`, `PSE`, `QRIS`, `SBP`, `BACS`, `BECS`) are upper case.
 *
 * Which of them a deployment can take is its processor's business (`Processor.paymentMethods`): the sandbox
 * processor takes `payment-card` only.
 */
export const paymentMethods = [
  // The spec's first values and its generic methods
  'payment-card', 'ach', 'cash', 'check', 'bank-transfer', 'cash-deposit', 'cryptocurrency', 'e-wallet',
  'instant-bank-transfer', 'invoice', 'voucher', 'SEPA', 'PIX', 'UPI',
  // More generic methods
  'direct-debit', 'wire-transfer', 'money-order', 'gift-card', 'store-credit', 'prepaid-card', 'buy-now-pay-later',
  'mobile-money', 'carrier-billing', 'cash-on-delivery', 'purchase-order', 'open-banking', 'loyalty-points', 'other',
  // Interbank schemes
  'SPEI', 'FPX', 'PSE', 'QRIS', 'SBP', 'BACS', 'BECS', 'sepa-instant', 'faster-payments', 'paynow',
  'duitnow', 'promptpay', 'payid', 'payto', 'osko', 'bpay', 'interac', 'interac-e-transfer', 'eft', 'autogiro',
  'betalingsservice',
  // Wallets
  'paypal', 'venmo', 'apple-pay', 'google-pay', 'samsung-pay', 'amazon-pay', 'cash-app', 'zelle', 'click-to-pay',
  'alipay', 'alipay-hk', 'wechat-pay', 'unionpay-quickpass', 'line-pay', 'kakao-pay', 'naver-pay', 'payco', 'toss-pay',
  'rakuten-pay', 'paypay', 'merpay', 'grabpay', 'gcash', 'maya', 'dana', 'ovo', 'gopay',
  'shopeepay', 'linkaja', 'truemoney', 'touch-n-go', 'boost', 'momo', 'zalopay', 'vnpay', 'paytm', 'phonepe', 'mobikwik',
  'skrill', 'neteller', 'paysafecard', 'paysafecash', 'mercado-pago', 'picpay', 'pagseguro', 'nequi', 'daviplata', 'yape',
  'plin', 'satispay', 'twint', 'mobilepay', 'vipps', 'swish', 'payconiq', 'bancontact', 'mb-way', 'bizum', 'blik',
  'lydia', 'paylib', 'wero', 'yoomoney', 'stc-pay', 'benefit-pay', 'fawry',
  // Mobile money
  'mpesa', 'mtn-mobile-money', 'airtel-money', 'orange-money', 'wave', 'ecocash', 'opay', 'palmpay',
  // Online banking and bank redirects
  'ideal', 'sofort', 'giropay', 'eps', 'przelewy24', 'trustly', 'multibanco', 'poli', 'khipu', 'webpay', 'servipag',
  'safetypay', 'knet', 'mada', 'sadad', 'pay-easy', 'postfinance',
  // Cash vouchers and cash networks
  'oxxo', 'boleto', 'konbini', 'pagoefectivo', 'efecty', 'baloto', 'rapipago', 'pago-facil', 'multicaja',
  // Buy now, pay later
  'klarna', 'afterpay', 'clearpay', 'affirm', 'zip', 'sezzle', 'scalapay', 'atome', 'kueski-pay',
  'tabby', 'tamara', 'paidy', 'kredivo', 'akulaku', 'alma', 'billie', 'riverty', 'ratepay',
  // Crypto
  'bitcoin', 'ethereum', 'bitpay', 'coinbase-commerce',
] as const;

export type PaymentMethod = (typeof paymentMethods)[number];

