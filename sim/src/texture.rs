//! Texture objects as a host creates them (`cudaCreateTextureObject`): the memory a texture
//! reads, its shape and texel format, and the sampler state (filtering, addressing,
//! coordinate normalisation). A [`crate::Gpu`] turns a [`TextureDesc`] into a 64-bit handle
//! (`cudaTextureObject_t`) that kernels pass to `tex`; the fetch rules are `emu/texture.rs`.
//!
//! The texels lie row-major and packed in device memory at `base` (x fastest, then y, then z;
//! `channels` 32-bit values per texel), as in a `cudaResourceTypeLinear` or
//! `cudaResourceTypePitch2D` resource whose pitch is the row's bytes. The limits and the rules
//! on which sampler state a texture may have are the CUDA programming guide's (texture object
//! API; "Texture Fetching"): linear filtering only on float texels, wrap and mirror addressing
//! only with normalised coordinates.

/// Largest extent of one dimension (texels): CUDA's largest 1-D linear texture, 2^27.
pub const MAX_TEXTURE_EXTENT: u32 = 1 << 27;

/// The type of each channel of a texel (read as `cudaReadModeElementType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TexFormat {
    /// 32-bit float (`float`, `float2`, `float4`).
    F32,
    /// 32-bit signed integer (`int`, ...).
    S32,
    /// 32-bit unsigned integer (`unsigned int`, ...).
    U32,
}

impl TexFormat {
    /// True for the float format (results of `tex.*.f32`).
    pub fn is_float(self) -> bool {
        self == TexFormat::F32
    }
}

/// How a fetch between texels is sampled (`cudaTextureFilterMode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TexFilter {
    /// `cudaFilterModePoint`: the texel the coordinate falls in.
    Point,
    /// `cudaFilterModeLinear`: linear (1-D), bilinear (2-D) or trilinear (3-D) interpolation of
    /// the nearest texels with 8-bit fractional weights.
    Linear,
}

/// What a coordinate outside the texture reads (`cudaTextureAddressMode`), per dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TexAddress {
    /// `cudaAddressModeClamp`: the nearest edge texel.
    Clamp,
    /// `cudaAddressModeBorder`: zero (the default border colour).
    Border,
    /// `cudaAddressModeWrap`: the texture repeats (normalised coordinates only).
    Wrap,
    /// `cudaAddressModeMirror`: the texture repeats mirrored (normalised coordinates only).
    Mirror,
}

impl TexAddress {
    /// The mode of the name a program file gives (`"clamp"`, `"border"`, `"wrap"`, `"mirror"`).
    pub fn from_name(s: &str) -> Option<TexAddress> {
        Some(match s {
            "clamp" => TexAddress::Clamp,
            "border" => TexAddress::Border,
            "wrap" => TexAddress::Wrap,
            "mirror" => TexAddress::Mirror,
            _ => return None,
        })
    }

    /// The allowed names, for error messages.
    pub const NAMES: &'static str = "clamp, border, wrap, mirror";
}

/// A texture object to create.
#[derive(Clone, Debug, PartialEq)]
pub struct TextureDesc {
    /// Device address of texel (0, 0, 0).
    pub base: u64,
    /// Width, height and depth in texels; a 1-D texture has `[w]`, a 2-D one `[w, h]`.
    pub dims: Vec<u32>,
    /// 32-bit channels per texel: 1, 2 or 4 (CUDA has no 3-channel textures).
    pub channels: u8,
    /// Channel type.
    pub format: TexFormat,
    /// Filtering.
    pub filter: TexFilter,
    /// Addressing mode per dimension (as many as `dims`).
    pub address: Vec<TexAddress>,
    /// Coordinates in [0, 1) span the texture (`normalizedCoords`); else texel units.
    pub normalized: bool,
}

impl TextureDesc {
    /// Bytes of one texel.
    pub fn texel_bytes(&self) -> u64 {
        4 * self.channels as u64
    }

    /// Bytes the texture spans from `base`.
    pub fn bytes(&self) -> u64 {
        self.dims.iter().map(|&d| d as u64).product::<u64>() * self.texel_bytes()
    }

    /// Checks the description against CUDA's rules; the error says which rule it breaks.
    pub fn check(&self) -> Result<(), String> {
        if !(1..=3).contains(&self.dims.len()) {
            return Err(format!(
                "a texture has 1, 2 or 3 dimensions, not {}",
                self.dims.len()
            ));
        }
        if let Some(d) = self
            .dims
            .iter()
            .find(|&&d| !(1..=MAX_TEXTURE_EXTENT).contains(&d))
        {
            return Err(format!(
                "extent {d} is not a texture extent; allowed: 1..={MAX_TEXTURE_EXTENT}"
            ));
        }
        if !matches!(self.channels, 1 | 2 | 4) {
            return Err(format!("{} channels; a texel has 1, 2 or 4", self.channels));
        }
        if self.address.len() != self.dims.len() {
            return Err(format!(
                "{} addressing modes for {} dimensions",
                self.address.len(),
                self.dims.len()
            ));
        }
        if self.filter == TexFilter::Linear && !self.format.is_float() {
            return Err(
                "linear filtering needs float texels (CUDA programming guide: it is only \
                 available for textures that return floating-point data)"
                    .into(),
            );
        }
        if !self.normalized {
            if let Some(a) = self
                .address
                .iter()
                .find(|a| matches!(a, TexAddress::Wrap | TexAddress::Mirror))
            {
                return Err(format!(
                    "{} addressing needs normalized coordinates (CUDA programming guide: wrap \
                     and mirror are only supported with normalized texture coordinates); use \
                     clamp or border",
                    format!("{a:?}").to_lowercase()
                ));
            }
        }
        Ok(())
    }
}
