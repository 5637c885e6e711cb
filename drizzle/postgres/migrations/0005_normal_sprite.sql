CREATE TABLE "system_state" (
	"key" varchar(100) PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"version" bigint NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
