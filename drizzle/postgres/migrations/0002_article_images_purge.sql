CREATE TABLE "article_images" (
	"article_id" uuid NOT NULL,
	"image_id" uuid NOT NULL,
	CONSTRAINT "article_images_pk" PRIMARY KEY("article_id","image_id")
);
--> statement-breakpoint
CREATE TABLE "leases" (
	"name" varchar(100) PRIMARY KEY NOT NULL,
	"holder" varchar(100) NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "purge_runs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"trigger" text NOT NULL,
	"dry_run" boolean NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"finished_at" timestamp (3) with time zone,
	"status" text NOT NULL,
	"removed" text NOT NULL,
	"bytes_freed" bigint NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "purge_settings" (
	"id" text PRIMARY KEY NOT NULL,
	"enabled" boolean NOT NULL,
	"interval_hours" integer NOT NULL,
	"remove_duplicates" boolean NOT NULL,
	"remove_orphans" boolean NOT NULL,
	"orphan_grace_hours" integer NOT NULL,
	"dry_run" boolean NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "article_images" ADD CONSTRAINT "article_images_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_images" ADD CONSTRAINT "article_images_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "article_images_image_id_idx" ON "article_images" USING btree ("image_id");--> statement-breakpoint
CREATE INDEX "purge_runs_trigger_started_at_idx" ON "purge_runs" USING btree ("trigger","started_at");