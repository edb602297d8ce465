CREATE TABLE "rate_limits" (
	"key" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"hits" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "rate_limits_key_window_start_pk" PRIMARY KEY("key","window_start")
);
--> statement-breakpoint
DROP INDEX "files_owner_idx";--> statement-breakpoint
ALTER TABLE "payment_notifications" ADD COLUMN "verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_notifications" ADD COLUMN "size" integer;--> statement-breakpoint
ALTER TABLE "payment_notifications" ADD COLUMN "client_address" text;--> statement-breakpoint
-- Hand edit: posts recorded before this migration whose reason is not a verification failure
-- (src/server/payments/newebpay.ts MpgVerifyFailure) passed their TradeSha check.
UPDATE "payment_notifications" SET "verified" = true WHERE "reason" IS NULL OR "reason" NOT IN ('missing_fields', 'too_large', 'bad_trade_sha', 'wrong_merchant', 'decrypt_failed', 'bad_json', 'bad_result', 'wrong_result_merchant');--> statement-breakpoint
CREATE INDEX "rate_limits_expires_idx" ON "rate_limits" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "files_created_idx" ON "files" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "files_owner_idx" ON "files" USING btree ("owner_id","created_at");