/* One frame of a PipeWire video stream: the C half of package pipewire. */
#ifndef NISH_PW_FRAME_H
#define NISH_PW_FRAME_H

#include <stdint.h>

/* Why a capture ended without a frame (nw_result.status). */
enum nw_status {
	NW_OK = 0,
	NW_TIMEOUT = 1,     /* no frame within the bound */
	NW_CANCELLED = 2,   /* nw_cancel was called */
	NW_CONNECT = 3,     /* the core refused the socket */
	NW_STREAM = 4,      /* the stream or the core reported an error */
	NW_FORMAT = 5,      /* the negotiated format is not one we convert */
	NW_SETUP = 6,       /* a PipeWire object could not be made */
	NW_UNSUPPORTED = 7, /* the frame came in a buffer we cannot read (DmaBuf) */
};

/* What one capture returns. pixels is tightly packed RGBA of the crop
 * region, owned by the nw_capture and freed by nw_free. */
typedef struct {
	int status;
	char message[256];  /* PipeWire's own words for NW_STREAM and NW_CONNECT */
	uint32_t format;    /* SPA video format id as negotiated */
	int width, height;  /* the buffer's size */
	int stride;         /* the buffer's bytes per row */
	int crop_x, crop_y, crop_w, crop_h; /* the region the source filled */
	int has_crop;       /* the producer sent a VideoCrop region */
	int nudges;         /* times the stream was paused and resumed for a frame */
	uint8_t *pixels;    /* crop_w * crop_h * 4 bytes, RGBA */
} nw_result;

typedef struct nw_capture nw_capture;

/* nw_new makes the loop and the cancel event; NULL when PipeWire cannot. */
nw_capture *nw_new(void);
/* nw_run connects over fd (taken over, closed by PipeWire), follows
 * node_id and runs the loop until one frame, an error, timeout_ms or a
 * cancel; it then tears the stream and the connection down. */
void nw_run(nw_capture *c, int fd, uint32_t node_id, int timeout_ms, nw_result *out);
/* nw_cancel ends nw_run from any thread. */
void nw_cancel(nw_capture *c);
/* nw_free frees the loop and the result's pixels. */
void nw_free(nw_capture *c, nw_result *res);

#endif
