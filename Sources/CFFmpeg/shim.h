/* FFmpeg's demuxers and decoders (libavformat, libavcodec), its pixel-format converter (libswscale) and
 * utilities (libavutil), from Debian's -dev packages: the Video module decodes camera files with them. */
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
#include <errno.h>

/* AVERROR(e) and AVERROR_EOF are function-like macros, which Swift does not import. */
static inline int lookaround_averror_again(void) { return AVERROR(EAGAIN); }
static inline int lookaround_averror_eof(void) { return AVERROR_EOF; }
